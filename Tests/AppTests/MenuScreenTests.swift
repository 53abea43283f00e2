import FieldTypes
import Testing
@testable import JQCApp

@Suite("Home menu screens: drawing and reading choices")
struct MenuScreenTests {
    let home = MenuScreen(
        title: "JanitorialQC",
        lines: ["Type a number or a letter and press Enter."],
        items: [
            "Assignments to do (3)", "Drafts to resume (0)", "Pending sync (0)", "Issues (0)", "Facilities (3)",
            "History", "Settings", "Start from a template", "All reports (0)",
        ],
        keys: [MenuScreen.Key("q", "quit")],
        footer: ["offline · 0 pending · 0 conflicts · 0 failed"])

    @Test("the home screen fits 80x24 and numbers its entries from 1")
    func homeFits() {
        let lines = home.render(width: 80, style: .plain)
        #expect(lines.count <= 23, "one row is left for the prompt")
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines.contains(" 1) Assignments to do (3)"))
        #expect(lines.contains(" 9) All reports (0)"))
        #expect(lines.contains("q) quit"))
        #expect(lines.last == "offline · 0 pending · 0 conflicts · 0 failed")
    }

    @Test("a message is wrapped at spaces to the width, every word kept")
    func messageWrapped() {
        let message = "Sign in with 'jqc login --server URL --username NAME' first; nothing on this device was lost."
        let lines = MenuScreen.wrap(message, width: 40)
        #expect(
            lines == [
                "Sign in with 'jqc login --server URL", "--username NAME' first; nothing on this",
                "device was lost.",
            ])
        #expect(MenuScreen.wrap("", width: 40).isEmpty)
    }

    @Test("long lines are cut to the width, marked, in ASCII without a UTF-8 locale")
    func longLinesCut() {
        let wide = MenuScreen(
            title: String(repeating: "T", count: 100), lines: [String(repeating: "x", count: 200)],
            header: String(repeating: "H", count: 120), items: [String(repeating: "y", count: 90)])
        let plain = wide.render(width: 80, style: .plain)
        #expect(plain.allSatisfy { $0.count <= 80 })
        #expect(plain[2].hasSuffix("~"))
        let unicode = wide.render(width: 80, style: TerminalStyle(color: false, unicode: true))
        #expect(unicode.allSatisfy { $0.count <= 80 })
        #expect(unicode[2].hasSuffix("…"))
    }

    @Test("with colour the title is bold; without colour there is no escape code at all")
    func colour() {
        #expect(home.render(style: .rich)[0] == "\u{1B}[1mJanitorialQC\u{1B}[0m")
        #expect(!home.render(style: .plain).joined().contains("\u{1B}"))
    }

    @Test("a column header sits over the items, aligned past the numbers")
    func header() {
        let screen = MenuScreen(
            title: "Drafts", header: "ID        STATE",
            items: (1...10).map { "item \($0)" })
        let lines = screen.render(style: .plain)
        #expect(lines.contains("     ID        STATE"))
        #expect(lines.contains("  1) item 1"))
        #expect(lines.contains(" 10) item 10"))
    }

    @Test("numbers choose items, letters choose keys, in any case and with spaces")
    func parsing() {
        #expect(home.parse("1") == .item(0))
        #expect(home.parse(" 9 ") == .item(8))
        #expect(home.parse("Q") == .key("q"))
        #expect(home.parse("q") == .key("q"))
    }

    @Test("anything else says what is valid")
    func invalid() {
        #expect(home.parse("10") == .invalid("There is no 10 here; type a number from 1 to 9 or q."))
        #expect(home.parse("0") == .invalid("There is no 0 here; type a number from 1 to 9 or q."))
        #expect(home.parse("x") == .invalid("'x' is not a choice here; type a number from 1 to 9 or q."))
        #expect(home.parse("") == .invalid("Type a number from 1 to 9 or q and press Enter."))
        let keysOnly = MenuScreen(title: "History", keys: [MenuScreen.Key("b", "back"), MenuScreen.Key("q", "quit")])
        #expect(keysOnly.parse("1") == .invalid("There are no numbered choices here; type b or q."))
        let one = MenuScreen(
            title: "One", items: ["only"], keys: [MenuScreen.Key("b", "back"), MenuScreen.Key("q", "quit")])
        #expect(one.validChoices == "1, b or q")
        #expect(one.parse("2") == .invalid("There is no 2 here; type 1, b or q."))
    }
}

@Suite("Home menu screens: keys")
struct MenuScreenKeyTests {
    @Test("keys that do not fit one line wrap onto the next, every one shown whole")
    func keysWrap() {
        let keys = [
            "continue the form", "complete", "add photos", "flag an issue", "export", "delete draft", "back", "quit",
        ]
        let letters = ["r", "c", "p", "i", "e", "d", "b", "q"]
        let screen = MenuScreen(title: "Report", keys: zip(letters, keys).map { MenuScreen.Key($0, $1) })
        let lines = screen.render(width: 80, style: .plain)
        #expect(lines.allSatisfy { $0.count <= 80 })
        let text = lines.joined(separator: "\n")
        for (letter, label) in zip(letters, keys) { #expect(text.contains("\(letter)) \(label)")) }
        #expect(!text.contains("~"))
    }
}
