/// One way a field type falls short of the protocol's promises.
public struct ConformanceFailure: Sendable, Hashable, CustomStringConvertible {
    /// The check that failed, such as `"display is one line"`.
    public var check: String
    /// The sample it failed on, as text (an input, a JSON answer, a field id).
    public var sample: String
    /// What happened instead.
    public var detail: String

    /// Makes a failure.
    public init(check: String, sample: String, detail: String) {
        self.check = check
        self.sample = sample
        self.detail = detail
    }

    /// `check [sample]: detail`.
    public var description: String { "\(check) [\(sample)]: \(detail)" }
}
