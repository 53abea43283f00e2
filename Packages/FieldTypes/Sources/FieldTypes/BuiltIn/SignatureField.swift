import Foundation
import Models

/// `signature`: who signed, when (device clock), and a fingerprint of the
/// report as it stood: `{"signer", "signed_at_device", "sha256"}`. A photo
/// local id (UUID) of an imported signature image is accepted too.
/// Never copied to a re-inspection.
public struct SignatureField: FieldType {
    /// Makes the type.
    public init() {}
    /// `"signature"`.
    public var name: String { "signature" }
    /// Conditions can only ask whether it is answered: there is no value to compare.
    public var logicKind: LogicKind? { nil }
    /// A re-inspection is signed again.
    public var copiesOnReinspection: Bool { false }
    /// A signature vouches for the answers as they stood when it was given.
    public var vouchesForReport: Bool { true }

    /// Who signed, when and the fingerprint; a signature image is a photo.
    public func layout(_ answer: JSONValue, for field: FieldDefinition) -> AnswerLayout {
        if case .string(let id) = answer { return .photos(ids: [id.lowercased()], caption: "Signature image") }
        return .signature(
            signer: answer["signer"]?.stringValue ?? "", signedAt: answer["signed_at_device"]?.stringValue ?? "",
            fingerprint: answer["sha256"]?.stringValue ?? "")
    }

    /// The `sha256` of a typed signature, lowercased; nil for a signature image.
    public func vouchedFingerprint(_ answer: JSONValue) -> String? {
        guard case .object(let object) = answer, case .string(let digest)? = object["sha256"], Self.isDigest(digest)
        else {
            return nil
        }
        return digest.lowercased()
    }

    /// `covers_revision` of a typed signature a later revision kept.
    public func coveredRevision(_ answer: JSONValue) -> Int? {
        guard case .object(let object) = answer, case .integer(let revision)? = object["covers_revision"], revision >= 1
        else {
            return nil
        }
        return Int(revision)
    }

    /// A typed signature with `"covers_revision": revision` added, unless it has one.
    public func covering(_ answer: JSONValue, revision: Int) -> JSONValue {
        guard case .object(var object) = answer, object["covers_revision"] == nil, vouchedFingerprint(answer) != nil
        else {
            return answer
        }
        object["covers_revision"] = .integer(Int64(revision))
        return .object(object)
    }

    /// The signature object (non-empty `signer`, RFC 3339 `signed_at_device`,
    /// 64-hex `sha256`), or a UUID string.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        let expected =
            "an object {\"signer\", \"signed_at_device\", \"sha256\"} or a signature photo's local id (a UUID)"
        switch answer {
        case .string(let text):
            if isBlank(answer) || UUID(uuidString: text) != nil { return nil }
            return "a signature " + Refusal.wrongKind(answer, expected: expected)
        case .object(let object):
            guard case .string(let signer)? = object["signer"], !Refusal.trimmed(signer).isEmpty else {
                return "a signature needs a non-empty 'signer' string"
            }
            guard case .string(let time)? = object["signed_at_device"], RFC3339.isTimestamp(time) else {
                return "a signature needs 'signed_at_device' as an RFC 3339 time, like 2026-03-01T14:02:00Z"
            }
            guard case .string(let digest)? = object["sha256"], Self.isDigest(digest) else {
                return "a signature needs 'sha256' as 64 hexadecimal characters"
            }
            return nil
        default:
            return "a signature " + Refusal.wrongKind(answer, expected: expected)
        }
    }

    /// The signer's name; the signature records it with the device's time and
    /// the caller's digest of the report's content.
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        let signer = Refusal.trimmed(OneLine.flatten(input, lineBreak: " "))
        guard !signer.isEmpty else { throw Refusal.blankInput(input, expected: "the signer's full name") }
        guard Self.isDigest(context.contentDigest) else {
            throw AnswerInputError(
                input: input,
                message:
                    "cannot sign as \(OneLine.quote(signer)): the report's content fingerprint is unavailable; save the report and sign again"
            )
        }
        return .object([
            "signer": .string(signer),
            "signed_at_device": .string(RFC3339.string(context.deviceTime)),
            "sha256": .string(context.contentDigest.lowercased()),
        ])
    }

    /// What to type, and why to sign last.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        [
            "Type the signer's full name.",
            "The signature records the name, this device's time and a fingerprint of the report as it stands: sign last.",
        ]
    }

    /// `signed by NAME at TIME`, or `signature image UUID`.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        guard let answer, !isBlank(answer), validate(answer, for: field) == nil else {
            return answer.map { isBlank($0) ? AnswerDisplay.noAnswer(style) : AnswerDisplay.unreadable($0, style) }
                ?? AnswerDisplay.noAnswer(style)
        }
        switch answer {
        case .string(let id): return "signature image \(id.lowercased())"
        default:
            let signer = OneLine.display(answer["signer"]?.stringValue ?? "", style: style, limit: 60)
            let time = answer["signed_at_device"]?.stringValue ?? ""
            if let covered = coveredRevision(answer) {
                return
                    "signed by \(style.paint(signer, .good)) at \(time), covering revision \(covered) only (changed since by someone else)"
            }
            return "signed by \(style.paint(signer, .good)) at \(time)"
        }
    }

    /// True for 64 hexadecimal characters.
    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.allSatisfy(\.isHexDigit)
    }
}
