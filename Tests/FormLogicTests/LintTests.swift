import FieldTypes
import FormLogic
import Models
import Testing

/// Each kind of logic problem lint reports, with its field and a fix.
@Suite struct LintTests {
    let rating: JSONValue = ["id": 1, "type": "rating", "label": "Tiles", "max": 5]
    let section: JSONValue = ["id": 2, "type": "section", "label": "Shower"]

    @Test("a reference to a field the form does not have names the field and the missing id")
    func unknownField() throws {
        let problems = try logic([
            rating, ["id": 3, "type": "text", "label": "Why", "visible_when": ["field": 99, "op": "answered"]],
        ]).problems
        #expect(problems.map(\.code) == [.unknownField])
        #expect(problems[0].fieldID == "3")
        #expect(problems[0].message.contains("'99'") && problems[0].message.contains("not in this form"))
    }

    @Test("a reference to a section or label is refused: they hold no answer")
    func displayOnly() throws {
        let problems = try logic([
            section, ["id": 3, "type": "text", "label": "Why", "visible_when": ["field": 2, "op": "answered"]],
        ]).problems
        #expect(problems.map(\.code) == [.displayOnlyField])
        #expect(problems[0].message.contains("section"))
    }

    @Test("an operator the referenced type does not support lists the ones it does")
    func unsupportedOperator() throws {
        let problems = try logic([
            ["id": 1, "type": "text", "label": "Name"],
            ["id": 3, "type": "text", "label": "Why", "visible_when": ["field": 1, "op": "lt", "value": "m"]],
        ]).problems
        #expect(problems.map(\.code) == [.unsupportedOperator])
        #expect(problems[0].message.contains("'lt'") && problems[0].message.contains("eq"))
    }

    @Test("a value of the wrong kind: a rating compared with a word")
    func wrongKind() throws {
        let problems = try logic([
            rating,
            ["id": 3, "type": "text", "label": "Why", "visible_when": ["field": 1, "op": "eq", "value": "good"]],
        ]).problems
        #expect(problems.map(\.code) == [.wrongKind])
        #expect(problems[0].message.contains("\"good\"") && problems[0].message.contains("a number"))
    }

    @Test("a cycle names every field in it, once")
    func cycle() throws {
        let problems = try logic([
            ["id": "a", "type": "number", "label": "A", "calculate": ["field": "c"]],
            ["id": "b", "type": "number", "label": "B", "visible_when": ["field": "a", "op": "gt", "value": 1]],
            ["id": "c", "type": "number", "label": "C", "calculate": ["add": [["field": "b"], 1]]],
            ["id": "d", "type": "number", "label": "D", "visible_when": ["field": "d", "op": "answered"]],
        ]).problems
        #expect(problems.map(\.code) == [.cycle, .cycle])
        #expect(problems[0].message.contains("'a', 'b', 'c'"))
        #expect(problems[1].fieldID == "d" && problems[1].message.contains("itself"))
    }

    @Test("a section whose condition reads a field under it is a cycle too")
    func sectionCycle() throws {
        let problems = try logic([
            ["id": 2, "type": "section", "label": "Shower", "visible_when": ["field": 3, "op": "answered"]],
            ["id": 3, "type": "rating", "label": "Tiles"],
        ]).problems
        #expect(problems.map(\.code) == [.cycle])
    }

    @Test("a condition deeper than 32 levels or larger than 256 nodes")
    func tooLarge() throws {
        var deep: JSONValue = ["field": 1, "op": "answered"]
        for _ in 0..<32 { deep = ["not": deep] }
        let wide: JSONValue = ["any": .array(Array(repeating: ["field": 1, "op": "answered"], count: 300))]
        let problems = try logic([
            rating,
            ["id": 3, "type": "text", "label": "Deep", "visible_when": deep],
            ["id": 4, "type": "text", "label": "Wide", "required_when": wide],
        ]).problems
        #expect(problems.map(\.code) == [.tooLarge, .tooLarge])
        #expect(problems[0].message.contains("33 levels"))
        #expect(problems[1].message.contains("301 nodes"))
    }

    @Test("calculate on a type that cannot hold it, or giving the wrong kind")
    func notCalculable() throws {
        let problems = try logic([
            rating,
            ["id": 3, "type": "date", "label": "When", "calculate": 1],
            ["id": 4, "type": "number", "label": "Count", "calculate": "many"],
        ]).problems
        #expect(problems.map(\.code) == [.notCalculable, .notCalculable])
        #expect(problems[0].message.contains("date") && problems[0].message.contains("number"))
        #expect(problems[1].message.contains("a string"))
    }

    @Test("a condition of the wrong shape is a one-line problem saying what a condition looks like")
    func malformed() throws {
        let problems = try logic([
            rating,
            ["id": 3, "type": "text", "label": "Why", "visible_when": "field 1 is answered"],
            ["id": 4, "type": "text", "label": "How", "visible_when": ["field": 1, "op": "in", "value": 3]],
        ]).problems
        #expect(problems.map(\.code) == [.malformed, .malformed])
        #expect(problems.allSatisfy { !$0.message.contains("\n") })
        #expect(problems[0].message.contains("not a condition"))
        #expect(problems[1].message.contains("[3]"))
    }

    @Test("every problem of a form at once, in form order")
    func everyProblemAtOnce() throws {
        let found = try codes([
            rating, section,
            ["id": 3, "type": "text", "label": "A", "visible_when": ["field": 99, "op": "answered"]],
            ["id": 4, "type": "text", "label": "B", "visible_when": ["field": 2, "op": "answered"]],
            ["id": 5, "type": "text", "label": "C", "visible_when": ["field": 1, "op": "eq", "value": "x"]],
            ["id": 6, "type": "image", "label": "D", "calculate": 1],
        ])
        #expect(
            found == ["LOGIC_UNKNOWN_FIELD", "LOGIC_DISPLAY_ONLY_FIELD", "LOGIC_WRONG_KIND", "LOGIC_NOT_CALCULABLE"])
    }

    @Test("an operator unknown to this build is a warning, and the field shows as unsupported, visible, answer kept")
    func unknownOperator() throws {
        let form = try logic([
            rating,
            ["id": 3, "type": "text", "label": "Why", "visible_when": ["field": 1, "op": "matches", "value": "x"]],
        ])
        #expect(form.problems.isEmpty)
        #expect(form.warnings.map(\.code) == [.unknownOperator])
        #expect(form.warnings[0].message.contains("'matches'"))
        #expect(form.unsupportedReason("3") != nil)
        let state = form.evaluate(Answers(["3": "kept"]))
        #expect(state.isVisible("3"))
        #expect(state.answers["3"] == "kept")
    }

    @Test("a required field that can be hidden is fine")
    func requiredHideable() throws {
        #expect(
            try codes([
                rating,
                [
                    "id": 3, "type": "text", "label": "Why", "required": true,
                    "visible_when": ["field": 1, "op": "le", "value": 2],
                ],
            ]).isEmpty)
    }
}

/// Text from a hostile template never breaks a message over two lines.
@Suite struct HostileLintTests {
    @Test("keys, operators, ids and values with line breaks are quoted on one line")
    func hostileKeysStayOnOneLine() throws {
        let problems = try logic([
            ["id": "a\nb", "type": "number", "label": "A"],
            ["id": 2, "type": "number", "label": "B", "calculate": ["fie\n": "x"]],
            [
                "id": 3, "type": "text", "label": "C",
                "visible_when": ["field": "a\nb", "op": "eq", "value": "x\u{2028}y"],
            ],
            ["id": 4, "type": "text", "label": "D", "visible_when": ["field": "zz\r\n", "op": "answered"]],
        ])
        let messages = (problems.problems + problems.warnings).map(\.description)
        #expect(messages.count == 3, "\(messages)")
        for message in messages {
            #expect(!message.contains("\n") && !message.contains("\r") && !message.contains("\u{2028}"), "\(message)")
        }
    }
}
