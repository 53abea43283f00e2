import ArgumentParsing
import Testing

/// Options, flags and arguments declared once with their types: the spec
/// help is written from, and the typed value read back through the same declaration.
@Suite("Typed declarations: defaults, conversions and their usage errors")
struct TypedOptionTests {
    enum Colour: String, CaseIterable, Sendable { case red, green }

    static let port = Option("port", "PORT", default: 8080, help: "port to listen on", as: .whole(in: 0...65535))
    static let ttl = Option(
        "ttl", "SECONDS", default: 2_592_000, note: "30 days", help: "lifetime", as: .whole(in: 1...3_000_000))
    static let name = Option("name", short: "n", "NAME", help: "a name")
    static let colour = Option(
        "colour", "COLOUR", values: Colour.allCases.map(\.rawValue), help: "a colour",
        as: Conversion<Colour>.choice(otherwise: { word, label in "\(label) '\(word)' is not a colour." }))
    static let pick = Option(repeating: "pick", "N", help: "pick one; repeatable", as: .whole(in: 1...9))
    static let verbose = Flag("verbose", short: "v", help: "say more")
    static let report = Argument("REPORT", help: "a report id")
    static let count = Argument(
        optional: "COUNT", help: "how many",
        as: .whole(in: 1...10, otherwise: { word, _ in "'\(word)' is not a count from 1 to 10." }))
    static let files = Argument(variadic: "FILE", help: "files", optional: true)

    static let spec = CommandSpec(
        "try", summary: "tries things", positionals: [report.spec, count.spec, files.spec],
        options: [port.spec, ttl.spec, name.spec, colour.spec, pick.spec, verbose.spec])

    private func parse(_ words: [String]) throws -> ParsedArguments {
        try ArgumentParser(globalOptions: [], program: "p").parse(words, for: Self.spec)
    }

    @Test("an absent option reads as its default, or nil, or empty")
    func defaults() throws {
        let parsed = try parse(["R1"])
        #expect(try parsed[Self.port] == 8080)
        #expect(try parsed[Self.name] == nil)
        #expect(try parsed[Self.colour] == nil)
        #expect(try parsed[Self.pick] == [])
        #expect(!parsed[Self.verbose])
        #expect(try parsed[Self.report] == "R1")
        #expect(try parsed[Self.count] == nil)
        #expect(try parsed[Self.files] == [])
        #expect(!parsed.isGiven(Self.port))
    }

    @Test("given values are read converted, through the declaration")
    func values() throws {
        let parsed = try parse(
            ["R1", "3", "a", "b", "--port=0", "-n", "Ana", "--colour", "green", "--pick", "2", "--pick", "5", "-v"])
        #expect(try parsed[Self.port] == 0)
        #expect(try parsed[Self.name] == "Ana")
        #expect(try parsed[Self.colour] == .green)
        #expect(try parsed[Self.pick] == [2, 5])
        #expect(parsed[Self.verbose])
        #expect(try parsed[Self.count] == 3)
        #expect(try parsed[Self.files] == ["a", "b"])
        #expect(parsed.isGiven(Self.port))
    }

    @Test(
        "a value that does not convert is a usage error naming the option and the word",
        arguments: [
            (["R1", "--port", "x"], "--port 'x' is not a whole number from 0 to 65535."),
            (["R1", "--port", "70000"], "--port '70000' is not a whole number from 0 to 65535."),
            (["R1", "--colour", "blue"], "--colour 'blue' is not a colour."),
            (["R1", "--pick", "1", "--pick", "0"], "--pick '0' is not a whole number from 1 to 9."),
            (["R1", "11"], "'11' is not a count from 1 to 10."),
        ])
    func conversionErrors(_ words: [String], _ message: String) throws {
        let parsed = try parse(words)
        #expect(throws: UsageError(message)) {
            _ = try parsed[Self.port]
            _ = try parsed[Self.colour]
            _ = try parsed[Self.pick]
            _ = try parsed[Self.count]
        }
    }

    @Test("help is written from the declarations: the default, its note, and the allowed values")
    func help() {
        let text = HelpFormatter.help(Self.spec, program: "p", globalOptions: [])
        #expect(text.contains("  --port PORT      port to listen on (default 8080)\n"), "\(text)")
        #expect(text.contains("  --ttl SECONDS    lifetime (default 2592000, 30 days)\n"), "\(text)")
        #expect(text.contains("a colour: red or green"), "\(text)")
        #expect(text.hasPrefix("Usage: p try REPORT [COUNT] [FILE...] [options]"), "\(text)")
    }

    @Test("exit codes are named, and integer literals compare with them")
    func exitCodes() {
        #expect(ExitCode.usage.rawValue == 2)
        #expect(ExitCode.temporary == 75)
        #expect(ExitCode.lockHeld == ExitCode(rawValue: 73))
        #expect(ExitCode.readerClosed.rawValue == 141)
    }
}
