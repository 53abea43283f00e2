import ArgumentParsing
import ServerStore

/// An admin command's parsed arguments, read through their declarations in
/// the admin commands' error type: a word that does not convert is a bad
/// request (exit 4), as the admin commands report bad input.
struct AdminArguments: Sendable {
    let parsed: ParsedArguments

    init(_ parsed: ParsedArguments) { self.parsed = parsed }

    /// The option's value, converted, or its default.
    subscript<Value>(option: Option<Value>) -> Value {
        get throws(ServerError) {
            do { return try parsed[option] } catch { throw ServerError.badRequest(error.message) }
        }
    }

    /// True when the flag was given.
    subscript(flag: Flag) -> Bool { parsed[flag] }

    /// The argument's value, converted.
    subscript<Value>(argument: Argument<Value>) -> Value {
        get throws(ServerError) {
            do { return try parsed[argument] } catch { throw ServerError.badRequest(error.message) }
        }
    }
}
