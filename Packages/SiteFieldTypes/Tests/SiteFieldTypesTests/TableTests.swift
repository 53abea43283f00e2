import FieldTypes
import Foundation
import Models
import SiteFieldTypes
import Testing

@Suite("Site field types: what a person types, sees and scores")
struct TableTests {
    static let fridge =
        #"{"id": "t", "type": "temperature", "label": "Fridge", "unit": "C", "allowed_min": 0, "allowed_max": 5, "critical": true}"#
    static let freezerF =
        #"{"id": "f", "type": "temperature", "label": "Freezer", "unit": "F", "allowed_min": -10, "allowed_max": 0}"#

    @Test(
        "temperature input",
        arguments: [
            ("4.5", #"{"unit":"C","value":4.5}"#), ("4", #"{"unit":"C","value":4}"#),
            ("40F", #"{"unit":"C","value":4.4}"#),
            ("4.5 °C", #"{"unit":"C","value":4.5}"#), ("39.2 ℉", #"{"unit":"C","value":4}"#),
            ("-18c", #"{"unit":"C","value":-18}"#),
            ("N/A", #""N/A""#),
        ])
    func temperatureInput(input: String, expected: String) throws {
        #expect(parsed(input, try definition(Self.fridge))?.canonicalString() == expected)
    }

    @Test("temperature refusals name the input and what to type")
    func temperatureRefusals() throws {
        let fridge = try definition(Self.fridge)
        #expect(
            refusal("warm", fridge)
                == "'warm' is not a temperature; type a reading like 4.5 (in C), 40F or 4.5 C, or n/a")
        #expect(refusal("-300", fridge) == "'-300' is below absolute zero; check the reading")
        #expect(refusal("-20C", try definition(Self.freezerF)) == nil, "converted to the field's unit")
        #expect(parsed("-20C", try definition(Self.freezerF)) == .object(["value": .integer(-4), "unit": "F"]))
    }

    @Test(
        "temperature scores: inside the range passes, outside fails, N/A is excluded",
        arguments: [
            (#"{"value": 4.5, "unit": "C"}"#, FieldScore.scored(fraction: 1, passed: true)),
            (#"{"value": 0, "unit": "C"}"#, .scored(fraction: 1, passed: true)),
            (#"{"value": 5, "unit": "C"}"#, .scored(fraction: 1, passed: true)),
            (#"{"value": 5.1, "unit": "C"}"#, .scored(fraction: 0, passed: false)),
            (#"{"value": -0.5, "unit": "C"}"#, .scored(fraction: 0, passed: false)),
            (#"{"value": 40, "unit": "F"}"#, .scored(fraction: 1, passed: true)),
            (#"{"value": 45, "unit": "F"}"#, .scored(fraction: 0, passed: false)),
            ("3", .scored(fraction: 1, passed: true)),
            (#""N/A""#, .notApplicable),
            ("null", .unanswered),
        ])
    func temperatureScore(json: String, expected: FieldScore) throws {
        #expect(registry.score(try definition(Self.fridge), try answer(json)) == expected)
    }

    @Test(
        "temperature display",
        arguments: [
            (#"{"value": 4.5, "unit": "C"}"#, TerminalStyle.plain, "4.5 C ok"),
            (#"{"value": 4.5, "unit": "C"}"#, TerminalStyle(color: false, unicode: true), "4.5 °C ✓"),
            (#"{"value": 9, "unit": "C"}"#, TerminalStyle.plain, "9 C out of range (allowed 0 to 5 C)"),
            (#"{"value": 9, "unit": "K"}"#, TerminalStyle.plain, #"(unreadable answer: {"unit":"K","value":9})"#),
            (#""N/A""#, TerminalStyle.plain, "N/A"),
        ])
    func temperatureDisplay(json: String, style: TerminalStyle, expected: String) throws {
        #expect(registry.display(try definition(Self.fridge), try answer(json), style: style) == expected)
    }

    @Test("temperature definition problems")
    func temperatureDefinition() throws {
        let problems = registry.check(
            FormSchema(fields: [try definition(#"{"id": "t", "type": "temperature", "unit": "K"}"#)]))
        #expect(
            problems.map(\.message) == [
                #"'unit' must be "C" or "F", not a string: "K"; change it"#,
                "a temperature field needs 'allowed_min' (the allowed range, in the field's unit); add it",
                "a temperature field needs 'allowed_max' (the allowed range, in the field's unit); add it",
            ])
        #expect(
            registry.check(FormSchema(fields: [try definition(Self.fridge)])).isEmpty,
            "critical is allowed: temperature is scored")
    }

    static let site = #"{"id": "g", "type": "geopoint", "label": "Where", "max_accuracy_m": 10}"#

    @Test(
        "geopoint input",
        arguments: [
            ("51.5072, -0.1276 ±5m", #"{"accuracy_m":5,"lat":51.5072,"lon":-0.1276}"#),
            ("51.5072,-0.1276 5m", #"{"accuracy_m":5,"lat":51.5072,"lon":-0.1276}"#),
            ("51.5072, -0.1276+-2.5 m", #"{"accuracy_m":2.5,"lat":51.5072,"lon":-0.1276}"#),
        ])
    func geopointInput(input: String, expected: String) throws {
        #expect(parsed(input, try definition(Self.site))?.canonicalString() == expected)
    }

    @Test("geopoint refusals")
    func geopointRefusals() throws {
        let site = try definition(Self.site)
        #expect(
            refusal("51.5072, -0.1276", site)
                == "'51.5072, -0.1276': this field needs the accuracy (10 m or better); add it like ±5m")
        #expect(
            refusal("51.5, -0.12 ±30m", site)
                == "'51.5, -0.12 ±30m': the accuracy 30 m is worse than the 10 m this field needs; take the reading again"
        )
        #expect(refusal("95, 0 ±1m", site) == "'95, 0 ±1m': the latitude 95 is out of range; it must be from -90 to 90")
        #expect(refusal("51.5", site)?.hasPrefix("'51.5' is not a position; type latitude, longitude") == true)
        let plain = try definition(#"{"id": "g", "type": "geopoint"}"#)
        #expect(
            parsed("51.5, -0.12", plain) == .object(["lat": .double(51.5), "lon": .double(-0.12)]),
            "accuracy is optional without max_accuracy_m")
    }

    @Test("geopoint display and score")
    func geopointDisplay() throws {
        let site = try definition(Self.site)
        let point = try answer(#"{"lat": 51.5072, "lon": -0.1276, "accuracy_m": 5}"#)
        #expect(registry.display(site, point, style: .plain) == "51.5072, -0.1276 +-5 m")
        #expect(
            registry.display(site, point, style: TerminalStyle(color: false, unicode: true)) == "51.5072, -0.1276 ±5 m")
        #expect(registry.display(site, nil, style: .plain) == "(no answer)")
        #expect(registry.score(site, point) == .notScoreable)
    }

    static let tag = #"{"id": "b", "type": "barcode", "label": "Asset tag", "pattern": "AT-[0-9]{5}"}"#

    @Test("barcode input, refusals and pattern problems")
    func barcode() throws {
        let tag = try definition(Self.tag)
        #expect(parsed(" AT-00042 ", tag) == "AT-00042")
        #expect(
            refusal("AT-42", tag)
                == "'AT-42': the code 'AT-42' does not match this field's pattern 'AT-[0-9]{5}'; scan it again or check the label"
        )
        #expect(parsed("anything at all", try definition(#"{"id": "b", "type": "barcode"}"#)) == "anything at all")
        let bad = registry.check(
            FormSchema(fields: [try definition(#"{"id": "b", "type": "barcode", "pattern": "AT-(["}"#)]))
        #expect(bad.map(\.message) == ["'pattern' 'AT-([' is not a valid regular expression; fix it or remove it"])
        #expect(registry.display(tag, "AT-00042", style: .plain) == "AT-00042")
        #expect(registry.score(tag, "AT-00042") == .notScoreable)
    }

    @Test(
        "a refusal quotes the input on one line, even one holding a line or paragraph separator",
        arguments: ["\u{2028}", "\u{2029}"])
    func refusalsOnOneLine(separator: String) throws {
        let fields = [Self.fridge, Self.site, Self.tag, Self.clean]
        for field in fields {
            let message = try #require(refusal("4\(separator)m", try definition(field)))
            #expect(message.hasPrefix("'4 m'"), "\(field): \(message)")
            #expect(
                !message.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\n" },
                "\(field): \(message)")
        }
    }

    static let clean = #"{"id": "d", "type": "duration", "label": "Deep clean", "max_seconds": 14400}"#

    @Test(
        "duration input",
        arguments: [
            ("1h30m", 5400), ("90m", 5400), ("01:30:00", 5400), ("45s", 45), ("1h 30m 15s", 5415), ("2H", 7200),
            ("0:00:00", 0),
        ])
    func durationInput(input: String, seconds: Int64) throws {
        #expect(parsed(input, try definition(Self.clean)) == .integer(seconds))
    }

    @Test("duration refusals and display")
    func durationRefusals() throws {
        let clean = try definition(Self.clean)
        #expect(refusal("90", clean) == "'90' is not a duration; add a unit (90s, 90m or 90h)")
        #expect(refusal("1:30", clean) == "'1:30' is not a duration; type a duration like 1h30m, 90m, 45s or 01:30:00")
        #expect(refusal("5h", clean) == "'5h': 5h is longer than the 4h this field allows at most")
        #expect(registry.display(clean, 5415, style: .plain) == "1h 30m 15s")
        #expect(registry.display(clean, 0, style: .plain) == "0s")
        #expect(registry.validate(clean, 20000) != nil)
        #expect(registry.score(clean, 5400) == .notScoreable)
    }

    @Test("re-inspection copies the barcode only")
    func prefill() throws {
        let schema = FormSchema(fields: [
            try definition(Self.tag), try definition(Self.site), try definition(Self.fridge),
            try definition(Self.clean),
        ])
        let parent = try #require(
            Answers(
                json: try answer(
                    #"""
                    {"b": "AT-00042", "g": {"lat": 1, "lon": 2, "accuracy_m": 3}, "t": {"value": 4, "unit": "C"}, "d": 600}
                    """#)))
        #expect(registry.prefill(from: parent, schema: schema).answeredIDs == ["b"])
    }
}

extension FieldTypeRegistry {
    /// The refusal of an answer by its field's type, nil when valid.
    func validate(_ field: FieldDefinition, _ answer: JSONValue) -> String? {
        resolve(field).validate(answer, for: field)
    }
}
