import Testing
import ArgumentParsing

/// The global options of the parser's test program, declared as a program declares them.
enum Globals {
    static let home = Option("home", "DIR", help: "profile directory")
    static let json = Flag("json", help: "machine output")
    static let help = Flag("help", short: "h", help: "show help")
    static let all: [OptionSpec] = [home.spec, json.spec, help.spec]
}

/// `answer LOCAL_ID FIELD_ID [VALUE]`, with a valued option and two flags.
enum Answer {
    static let localID = Argument("LOCAL_ID", help: "the report")
    static let fieldID = Argument("FIELD_ID", help: "the field")
    static let value = Argument(optional: "VALUE", help: "the answer as typed")
    static let valueJSON = Option("value-json", "JSON", help: "the contract's JSON encoding")
    static let clear = Flag("clear", help: "unset the answer")
    static let addRow = Flag("add-row", help: "append a table row")
    static let spec = CommandSpec(
        "answer", summary: "sets one answer", positionals: [localID.spec, fieldID.spec, value.spec],
        options: [valueJSON.spec, clear.spec, addRow.spec])
}

/// `photo add LOCAL_ID FILE...`, with a repeatable option and a one-letter one.
enum PhotoAdd {
    static let localID = Argument("LOCAL_ID", help: "the report")
    static let files = Argument(variadic: "FILE", help: "image files")
    static let field = Option("field", "FIELD_ID", help: "image field")
    static let pick = Option(repeating: "pick", "FIELD_ID=SIDE", help: "per-field choice")
    static let output = Option("output", short: "o", "FILE", help: "where to write")
    static let spec = CommandSpec(
        "photo add", summary: "import photos", positionals: [localID.spec, files.spec],
        options: [field.spec, pick.spec, output.spec])
}

let parser = ArgumentParser(globalOptions: Globals.all)

@Suite("The command-line parser")
struct ArgumentParserTests {
    @Test("positionals and options in any order, global options anywhere")
    func anyOrder() throws {
        let parsed = try parser.parse(["--json", "R1", "--home", "/tmp/p", "7", "4"], for: Answer.spec)
        #expect(try parsed[Answer.localID] == "R1")
        #expect(try parsed[Answer.fieldID] == "7")
        #expect(try parsed[Answer.value] == "4")
        #expect(parsed[Globals.json])
        #expect(try parsed[Globals.home] == "/tmp/p")
        #expect(!parsed[Answer.clear])
    }

    @Test("--name=value, -o value and -ovalue are all read")
    func valueForms() throws {
        #expect(try parser.parse(["R", "a.jpg", "--field=9"], for: PhotoAdd.spec)[PhotoAdd.field] == "9")
        #expect(try parser.parse(["R", "a.jpg", "-o", "out.html"], for: PhotoAdd.spec)[PhotoAdd.output] == "out.html")
        #expect(try parser.parse(["R", "a.jpg", "-oout.html"], for: PhotoAdd.spec)[PhotoAdd.output] == "out.html")
    }

    @Test("a value may contain '=' and spaces; negative numbers are values, not options")
    func values() throws {
        let parsed = try parser.parse(
            ["R", "t", "Item=Sink;Status=ok=fine", "--value-json", "{\"a\": 1}"], for: Answer.spec)
        #expect(try parsed[Answer.value] == "Item=Sink;Status=ok=fine")
        #expect(try parsed[Answer.valueJSON] == "{\"a\": 1}")
        #expect(try parser.parse(["R", "5", "-2.5"], for: Answer.spec)[Answer.value] == "-2.5")
    }

    @Test("'--' ends the options, so an answer may start with a dash")
    func doubleDash() throws {
        let parsed = try parser.parse(["R", "3", "--", "--not-an-option"], for: Answer.spec)
        #expect(try parsed[Answer.localID] == "R")
        #expect(try parsed[Answer.fieldID] == "3")
        #expect(try parsed[Answer.value] == "--not-an-option")
        #expect(try parsed[Answer.valueJSON] == nil)
    }

    @Test("repeatable options keep every value in order; a variadic argument takes the remaining words")
    func repeatable() throws {
        let parsed = try parser.parse(
            ["R", "a.jpg", "b.jpg", "--pick", "1=mine", "--pick", "2=server"], for: PhotoAdd.spec)
        #expect(try parsed[PhotoAdd.pick] == ["1=mine", "2=server"])
        #expect(try parsed[PhotoAdd.localID] == "R")
        #expect(try parsed[PhotoAdd.files] == ["a.jpg", "b.jpg"])
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
            try parser.parse(arguments, for: Answer.spec)
        }
    }

    @Test("--help is honoured even when required arguments are missing")
    func help() throws {
        #expect(try parser.parse(["--help"], for: Answer.spec)[Globals.help])
        #expect(try parser.parse(["-h"], for: Answer.spec)[Globals.help])
        #expect(try parser.parse(["-h"], for: PhotoAdd.spec)[PhotoAdd.files] == [])
    }

    @Test("a variadic positional needs at least one value")
    func variadic() {
        #expect(throws: UsageError("'photo add' needs FILE (image files). Usage: photo add LOCAL_ID FILE... [options]"))
        {
            try parser.parse(["R"], for: PhotoAdd.spec)
        }
    }

    @Test("a flag is found among words the parser refuses, so the error can be answered in the shape asked for")
    func flagWritten() {
        let words = ["R", "--json", "--frobnicate"]
        #expect(throws: UsageError.self) { try parser.parse(words, for: Answer.spec) }
        #expect(Globals.json.isWritten(in: words))
        #expect(Globals.help.isWritten(in: ["R", "-h"]))
        #expect(!Globals.help.isWritten(in: ["R", "--json"]))
    }

    @Test("help text lists arguments, options and global options from the spec")
    func helpText() {
        let text = HelpFormatter.help(Answer.spec, program: "jqc", globalOptions: Globals.all)
        #expect(text.hasPrefix("Usage: jqc answer LOCAL_ID FIELD_ID [VALUE] [options]\n\nsets one answer"))
        #expect(text.contains("  --value-json JSON  the contract's JSON encoding"))
        #expect(text.contains("  -h, --help"))
        #expect(text.contains("Global options:"))
    }
}
