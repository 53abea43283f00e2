import FieldTypes
import Foundation
import JQCCore

/// One screen of the home menu: a title, lines of text, numbered choices and
/// lettered keys. Drawing it and reading what a person typed are pure
/// functions, so both are tested without a terminal.
public struct MenuScreen: Sendable, Equatable {
    /// A lettered key such as `b) back`.
    public struct Key: Sendable, Equatable {
        /// What is typed, in lower case ("b").
        public let letter: String
        /// What it does ("back").
        public let label: String

        /// Makes a key; the letter is matched case-insensitively.
        public init(_ letter: String, _ label: String) {
            self.letter = letter.lowercased()
            self.label = label
        }
    }

    /// What a person typed, read against a screen.
    public enum Choice: Sendable, Equatable {
        /// A numbered item, as a zero-based index into `items`.
        case item(Int)
        /// One of the screen's keys, in lower case.
        case key(String)
        /// Nothing valid; the message says what is.
        case invalid(String)
    }

    /// The heading.
    public var title: String
    /// Text above the choices.
    public var lines: [String]
    /// Column headings over the numbered items, if they are a table.
    public var header: String?
    /// The numbered choices, shown from 1.
    public var items: [String]
    /// The lettered keys.
    public var keys: [Key]
    /// Text below the keys (the status line on the home screen).
    public var footer: [String]

    /// Makes a screen.
    public init(
        title: String, lines: [String] = [], header: String? = nil, items: [String] = [],
        keys: [Key] = [], footer: [String] = []
    ) {
        self.title = title
        self.lines = lines
        self.header = header
        self.items = items
        self.keys = keys
        self.footer = footer
    }

    /// The screen as lines, none wider than `width` characters; the title is
    /// bold only when the style allows colour.
    public func render(width: Int = 80, style: TerminalStyle) -> [String] {
        let numberWidth = String(items.count).count
        let indent = String(repeating: " ", count: numberWidth + 3)
        var out: [String] = []
        let title = Self.fit(self.title, width: width, style: style)
        out.append(style.color ? "\u{1B}[1m\(title)\u{1B}[0m" : title)
        out.append("")
        out += lines.map { Self.fit($0, width: width, style: style) }
        if !lines.isEmpty && !items.isEmpty { out.append("") }
        if let header, !items.isEmpty { out.append(Self.fit(indent + header, width: width, style: style)) }
        for (index, item) in items.enumerated() {
            let number = String(index + 1)
            let padded = String(repeating: " ", count: numberWidth - number.count) + number
            out.append(Self.fit(" \(padded)) \(item)", width: width, style: style))
        }
        if !keys.isEmpty {
            out.append("")
            var line = ""
            for key in keys.map({ "\($0.letter)) \($0.label)" }) {
                if !line.isEmpty && line.count + 3 + key.count > width {
                    out.append(line)
                    line = ""
                }
                line += (line.isEmpty ? "" : "   ") + key
            }
            out.append(Self.fit(line, width: width, style: style))
        }
        if !footer.isEmpty {
            out.append("")
            out += footer.map { Self.fit($0, width: width, style: style) }
        }
        return out
    }

    /// Reads a typed line: a number from 1 to the item count, or a key's letter.
    public func parse(_ input: String) -> Choice {
        let typed = input.trimmingCharacters(in: .whitespaces).lowercased()
        if typed.isEmpty {
            return .invalid("Type \(validChoices) and press Enter.")
        }
        if let number = Int(typed) {
            guard (1...max(items.count, 1)).contains(number), !items.isEmpty else {
                return .invalid(
                    items.isEmpty
                        ? "There are no numbered choices here; type \(validChoices)."
                        : "There is no \(number) here; type \(validChoices).")
            }
            return .item(number - 1)
        }
        if keys.contains(where: { $0.letter == typed }) {
            return .key(typed)
        }
        return .invalid("'\(input.trimmingCharacters(in: .whitespaces))' is not a choice here; type \(validChoices).")
    }

    /// What may be typed, in words: "a number from 1 to 9, b or q".
    public var validChoices: String {
        var parts: [String] = []
        switch items.count {
        case 0: break
        case 1: parts.append("1")
        default: parts.append("a number from 1 to \(items.count)")
        }
        parts += keys.map(\.letter)
        guard let last = parts.last else { return "nothing" }
        return parts.count == 1 ? last : parts.dropLast().joined(separator: ", ") + " or " + last
    }

    /// Cuts a line to `width` characters, marking the cut. The program's own
    /// colour codes (`ESC [ ... m`, as in `show`'s answers; text from outside
    /// reaches a line only through `OneLine`) take no room and are never cut
    /// in half, and a cut line that had one ends with a reset.
    public static func fit(_ line: String, width: Int, style: TerminalStyle) -> String {
        guard line.count > width else { return line }
        let mark = style.unicode ? "…" : "~"
        guard line.contains("\u{1B}") else { return String(line.prefix(max(width - 1, 0))) + mark }
        var pieces: [(text: String, code: Bool)] = []
        var rest = Substring(line)
        while let first = rest.first {
            // `ESC [`, digits and semicolons, `m`: one colour code, kept whole.
            let opens = first == "\u{1B}" && rest.dropFirst().first == "["
            let parameters = opens ? rest.dropFirst(2).prefix { $0.isASCII && ($0.isNumber || $0 == ";") }.count : 0
            if opens, rest.dropFirst(2 + parameters).first == "m" {
                pieces.append((String(rest.prefix(3 + parameters)), true))
                rest = rest.dropFirst(3 + parameters)
            } else {
                pieces.append((String(first), false))
                rest = rest.dropFirst()
            }
        }
        guard pieces.filter({ !$0.code }).count > width else { return line }
        var out = "", shown = 0, coloured = false
        for piece in pieces {
            if piece.code {
                out += piece.text
                coloured = true
            } else if shown < width - 1 {
                out += piece.text
                shown += 1
            } else {
                break
            }
        }
        return out + mark + (coloured ? "\u{1B}[0m" : "")
    }
}

extension MenuScreen {
    /// Cuts a table cell to `width` characters, marking the cut.
    /// `text` broken at spaces into lines of at most `width` characters, for
    /// messages that must be read whole (a word longer than a line is cut by `fit`).
    static func wrap(_ text: String, width: Int = 78) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        return line.isEmpty ? lines : lines + [line]
    }

    static func cell(_ text: String, _ width: Int) -> String {
        fit(text, width: width, style: .rich)
    }

    /// A table of numbered items that fits `width`: the other columns keep
    /// their width and the `flexible` column gets what is left. Returns the
    /// header line and one line per row, for `header` and `items`.
    static func table(_ header: [String], _ rows: [[String]], flexible: Int, width: Int = 80) -> (
        header: String, items: [String]
    ) {
        let prefix = String(rows.count).count + 3
        var widths = header.map(\.count)
        for row in rows {
            for (index, value) in row.prefix(header.count).enumerated() {
                widths[index] = max(widths[index], value.count)
            }
        }
        let others = widths.enumerated().filter { $0.offset != flexible }.reduce(0) { $0 + $1.element }
        let room = max(width - prefix - others - 2 * (header.count - 1), 8)
        let fitted = rows.map { row in
            row.enumerated().map { $0.offset == flexible ? cell($0.element, room) : $0.element }
        }
        let lines = TextTable.render(header, fitted, maxColumn: width)
        return (lines.first ?? "", Array(lines.dropFirst()))
    }
}
