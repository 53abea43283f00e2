import Foundation
import Testing
import Models

@Suite("JSON values")
struct JSONValueTests {
    @Test("parsing keeps integers apart from fractions and keeps every kind")
    func parse() throws {
        let value = try JSONValue.parse(#"{"a": 4, "b": 4.5, "c": "x", "d": [true, null], "e": {}}"#)
        #expect(value["a"] == .integer(4))
        #expect(value["b"] == .double(4.5))
        #expect(value["c"] == .string("x"))
        #expect(value["d"] == .array([.bool(true), .null]))
        #expect(value["e"] == .object([:]))
    }

    @Test("a boolean is never read as a number, nor a number as a boolean")
    func boolVersusNumber() throws {
        #expect(try JSONValue.parse("true") == .bool(true))
        #expect(try JSONValue.parse("1") == .integer(1))
        #expect(try JSONValue.parse("0") == .integer(0))
    }

    @Test("the canonical form sorts keys, so equal values give equal bytes")
    func canonical() throws {
        let a = try JSONValue.parse(#"{"b": 1, "a": [2, {"z": 1, "y": 2}]}"#)
        let b = try JSONValue.parse(#"{ "a": [2, {"y": 2, "z": 1}], "b": 1 }"#)
        #expect(a.canonicalString() == #"{"a":[2,{"y":2,"z":1}],"b":1}"#)
        #expect(a.canonicalData() == b.canonicalData())
    }

    @Test("round trip through the canonical form gives the same value")
    func roundTrip() throws {
        let value: JSONValue = [
            "answers": ["1": 4, "2": "pass", "3": [["Item": "Sink", "Status": "ok"]], "4": 2.5, "5": true]
        ]
        #expect(try JSONValue.parse(value.canonicalData()) == value)
    }

    @Test(
        "text that is not JSON gives one clear line saying what it looks like",
        arguments: [
            ("{\"a\": ", "it is cut short: it ends at line 1, column 7 before the JSON is complete"),
            ("{\"a\": 1,\n \"b\": tru}", "it is malformed at line 2, column 10: unexpected character '}' there"),
            ("<html>Bad Gateway</html>", "it looks like an HTML or XML page"), ("  ", "it is empty"),
        ])
    func invalid(text: String, why: String) {
        #expect(throws: ModelsError(.invalidJSON, "the text is not valid JSON: \(why)")) {
            try JSONValue.parse(text)
        }
    }
}

@Suite("Semantic versions for the version gate")
struct SemanticVersionTests {
    @Test("versions compare by number, not by text")
    func order() throws {
        #expect(try #require(SemanticVersion("0.10.0")) > #require(SemanticVersion("0.9.0")))
        #expect(try #require(SemanticVersion("1.2")) == SemanticVersion(1, 2, 0))
        #expect(try #require(SemanticVersion("2.0.0-beta+7")) == SemanticVersion(2, 0, 0))
        #expect(try #require(SemanticVersion("1.0.1")) > #require(SemanticVersion("1.0.0")))
    }

    @Test(
        "text that is not a version is refused", arguments: ["", "v1.2", "1..2", "1.2.3.4", "a.b.c", "-1.0.0", "1.٢.3"])
    func invalid(text: String) {
        #expect(SemanticVersion(text) == nil)
    }
}
