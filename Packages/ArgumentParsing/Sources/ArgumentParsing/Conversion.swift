/// How the word given to an option or argument becomes a typed value, and
/// the usage error when it cannot. The error's text is given `label` (how the
/// option was declared, `--port`, or the argument's name, `SHELL`) and the word.
public struct Conversion<Value: Sendable>: Sendable {
    private let body: @Sendable (_ word: String, _ label: String) throws(UsageError) -> Value

    /// A conversion that throws its own usage error.
    public init(_ body: @escaping @Sendable (_ word: String, _ label: String) throws(UsageError) -> Value) {
        self.body = body
    }

    /// A conversion that answers nil for a word it refuses; `otherwise` says why.
    public static func checked(
        _ make: @escaping @Sendable (String) -> Value?,
        otherwise message: @escaping @Sendable (_ word: String, _ label: String) -> String
    ) -> Conversion {
        Conversion { (word, label) throws(UsageError) -> Value in
            guard let value = make(word) else { throw UsageError(message(word, label)) }
            return value
        }
    }

    /// Converts `word`, given to the option or argument called `label`.
    public func callAsFunction(_ word: String, label: String) throws(UsageError) -> Value {
        try body(word, label)
    }

    /// This conversion followed by `next` (a value checked further: a range, a set).
    public func then<Next: Sendable>(
        _ next: @escaping @Sendable (Value, _ word: String, _ label: String) throws(UsageError) -> Next
    ) -> Conversion<Next> {
        let first = self
        return Conversion<Next> { (word, label) throws(UsageError) -> Next in
            try next(try first(word, label: label), word, label)
        }
    }
}

extension Conversion where Value == String {
    /// The word as given.
    public static var text: Conversion<String> {
        Conversion { (word, _) throws(UsageError) -> String in word }
    }
}

extension Conversion where Value == Int {
    /// A whole number within `range`: "--workers 'x' is not a whole number from 1 to 512." unless `otherwise` says more.
    public static func whole(
        in range: ClosedRange<Int>,
        otherwise message: (@Sendable (_ word: String, _ label: String) -> String)? = nil
    ) -> Conversion<Int> {
        checked(
            { word in Int(word).flatMap { range.contains($0) ? $0 : nil } },
            otherwise: message ?? { word, label in
                "\(label) '\(word)' is not a whole number from \(range.lowerBound) to \(range.upperBound)."
            })
    }
}

extension Conversion where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
    /// One of the type's cases, by raw value.
    public static func choice(otherwise message: @escaping @Sendable (_ word: String, _ label: String) -> String)
        -> Conversion<Value>
    {
        checked({ Value(rawValue: $0) }, otherwise: message)
    }
}

extension Conversion where Value == Double {
    /// A number within `range`: "--rate 'x' is not a number from 0.0 to 1.0." unless `otherwise` says more.
    public static func number(
        in range: ClosedRange<Double>,
        otherwise message: (@Sendable (_ word: String, _ label: String) -> String)? = nil
    ) -> Conversion<Double> {
        checked(
            { word in Double(word).flatMap { range.contains($0) ? $0 : nil } },
            otherwise: message ?? { word, label in
                "\(label) '\(word)' is not a number from \(range.lowerBound) to \(range.upperBound)."
            })
    }
}
