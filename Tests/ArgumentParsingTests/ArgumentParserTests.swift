import Testing
import ArgumentParsing

let globals: [OptionSpec] = [
    .value("home", "DIR", help: "profile directory"),
    .flag("json", help: "machine output"),
    .flag("help", short: "h", help: "show help"),
]
let parser = ArgumentParser(globalOptions: globals)
let answer = CommandSpec(
    "answer", summary: "sets one answer",
    positionals: [
        PositionalSpec("LOCAL_ID", help: "the report"),
        PositionalSpec("FIELD_ID", help: "the field"),
        PositionalSpec("VALUE", help: "the answer as typed", optional: true),
    ],
    options: [
        .value("value-json", "JSON", help: "the contract's JSON encoding"),
        .flag("clear", help: "unset the answer"), .flag("add-row", help: "append a table row"),
    ])
let photo = CommandSpec(
    "photo add", summary: "import photos",
    positionals: [
        PositionalSpec("LOCAL_ID", help: "the report"), PositionalSpec("FILE", help: "image files", variadic: true),
    ],
    options: [
        .value("field", "FIELD_ID", help: "image field"),
        .value("pick", "FIELD_ID=SIDE", repeatable: true, help: "per-field choice"),
        .value("output", short: "o", "FILE", help: "where to write"),
    ])

@Suite("The command-line parser")
struct ArgumentParserTests {
    @Test("positionals and options in any order, global options anywhere")
    func anyOrder() throws {
        let parsed = try parser.parse(["--json", "R1", "--home", "/tmp/p", "7", "4"], for: answer)
        #expect(parsed.positionals == ["R1", "7", "4"])
        #expect(parsed.flag("json"))
        #expect(parsed.value("home") == "/tmp/p")
        #expect(!parsed.flag("clear"))
    }

    @Test("--name=value, -o value and -ovalue are all read")
    func valueForms() throws {
        #expect(try parser.parse(["R", "a.jpg", "--field=9"], for: photo).value("field") == "9")
        #expect(try parser.parse(["R", "a.jpg", "-o", "out.html"], for: photo).value("output") == "out.html")
        #expect(try parser.parse(["R", "a.jpg", "-oout.html"], for: photo).value("output") == "out.html")
    }

    @Test("a value may contain '=' and spaces; negative numbers are values, not options")
    func values() throws {
        let parsed = try parser.parse(
            ["R", "t", "Item=Sink;Status=ok=fine", "--value-json", "{\"a\": 1}"], for: answer)
        #expect(parsed.positional(2) == "Item=Sink;Status=ok=fine")
        #expect(parsed.value("value-json") == "{\"a\": 1}")
        #expect(try parser.parse(["R", "5", "-2.5"], for: answer).positional(2) == "-2.5")
    }

    @Test("'--' ends the options, so an answer may start with a dash")
    func doubleDash() throws {
        let parsed = try parser.parse(["R", "3", "--", "--not-an-option"], for: answer)
        #expect(parsed.positionals == ["R", "3", "--not-an-option"])
    }

    @Test("repeatable options keep every value in order")
    func repeatable() throws {
        let parsed = try parser.parse(["R", "a.jpg", "b.jpg", "--pick", "1=mine", "--pick", "2=server"], for: photo)
        #expect(parsed.all("pick") == ["1=mine", "2=server"])
        #expect(parsed.positionals == ["R", "a.jpg", "b.jpg"])
    }

    @Test(
        "errors name the offending word and say what to do",
        arguments: [
            (
                ["R", "1", "4", "--vaule-json", "4"],
                "'answer' has no option '--vaule-json'; did you mean '--value-json'?"
            ),
            (["R", "1", "4", "--frobnicate"], "'answer' has no option '--frobnicate'. See 'answer --help'."),
            (["R"], "'answer' needs FIELD_ID (the field). Usage: answer LOCAL_ID FIELD_ID [VALUE] [options]"),
            (["R", "1", "4", "5"], "'answer' does not take '5'. Usage: answer LOCAL_ID FIELD_ID [VALUE] [options]"),
            (["R", "1", "--value-json"], "'--value-json' needs a value (JSON)."),
            (["R", "1", "--clear=yes"], "'--clear' takes no value."),
            (["R", "1", "--home", "a", "--home", "b"], "'--home' was given twice; give it once."),
        ])
    func errors(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) {
            try parser.parse(arguments, for: answer)
        }
    }

    @Test("--help is honoured even when required arguments are missing")
    func help() throws {
        #expect(try parser.parse(["--help"], for: answer).flag("help"))
        #expect(try parser.parse(["-h"], for: answer).flag("help"))
    }

    @Test("a variadic positional needs at least one value")
    func variadic() {
        #expect(throws: UsageError("'photo add' needs FILE (image files). Usage: photo add LOCAL_ID FILE... [options]"))
        {
            try parser.parse(["R"], for: photo)
        }
    }

    @Test("help text lists arguments, options and global options from the spec")
    func helpText() {
        let text = HelpFormatter.help(answer, program: "jqc", globalOptions: globals)
        #expect(text.hasPrefix("Usage: jqc answer LOCAL_ID FIELD_ID [VALUE] [options]\n\nsets one answer"))
        #expect(text.contains("  --value-json JSON  the contract's JSON encoding"))
        #expect(text.contains("  -h, --help"))
        #expect(text.contains("Global options:"))
    }
}
