import Foundation

/// The words that make a `radio` or `pass_fail` answer a pass (seed §17):
/// `pass yes ok good acceptable compliant`, any case, surrounding spaces ignored.
public enum PassKeywords {
    /// The keywords, lowercase.
    public static let all: Set<String> = ["pass", "yes", "ok", "good", "acceptable", "compliant"]

    /// True when `answer` is one of the keywords.
    public static func passes(_ answer: String) -> Bool {
        all.contains(answer.trimmingCharacters(in: .whitespacesAndNewlines).lowercased())
    }
}
