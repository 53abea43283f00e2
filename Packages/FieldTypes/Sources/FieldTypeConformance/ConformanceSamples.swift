import Foundation
import FieldTypes
import Models

/// Real examples of one field type, for `FieldTypeConformance.check`: a field
/// definition that is right, some that are wrong, and typed inputs and
/// answers on both sides of the line.
public struct ConformanceSamples: Sendable {
    /// A definition of the type with no problems; used for every input and answer check.
    public var goodDefinition: FieldDefinition
    /// Definitions of the type each expected to produce at least one problem.
    public var badDefinitions: [FieldDefinition]
    /// Text a person may type, each expected to parse into a valid answer.
    public var validInputs: [String]
    /// Text each expected to be refused with a one-line message.
    public var invalidInputs: [String]
    /// Answers in the contract's encoding, each expected to validate.
    public var validAnswers: [JSONValue]
    /// Answers each expected to be refused by `validate`.
    public var invalidAnswers: [JSONValue]
    /// The context inputs are parsed in.
    public var context: InputContext

    /// Makes samples; only the good definition is required.
    public init(
        goodDefinition: FieldDefinition, badDefinitions: [FieldDefinition] = [],
        validInputs: [String] = [], invalidInputs: [String] = [],
        validAnswers: [JSONValue] = [], invalidAnswers: [JSONValue] = [],
        context: InputContext = ConformanceSamples.defaultContext
    ) {
        self.goodDefinition = goodDefinition
        self.badDefinitions = badDefinitions
        self.validInputs = validInputs
        self.invalidInputs = invalidInputs
        self.validAnswers = validAnswers
        self.invalidAnswers = invalidAnswers
        self.context = context
    }

    /// A fixed moment (2026-03-01T14:02:00Z) and a well-formed digest, so checks are repeatable.
    public static let defaultContext = InputContext(
        deviceTime: Date(timeIntervalSince1970: 1_772_373_720),
        contentDigest: String(repeating: "ab", count: 32),
        reportLocalID: "6f1c2a7e-3b7d-4c55-9a51-2f4e8f0c9d11")
}
