import FieldTypeConformance
import FieldTypes
import Foundation
import Models
import SiteFieldTypes
import Testing

@Suite("Site field types keep the protocol's promises")
struct ConformanceTests {
    @Test("geopoint conforms")
    func geopoint() throws {
        let samples = ConformanceSamples(
            goodDefinition: try definition(#"{"id": "g", "type": "geopoint", "label": "Where", "max_accuracy_m": 25}"#),
            badDefinitions: [
                try definition(#"{"id": "g2", "type": "geopoint", "max_accuracy_m": -1}"#),
                try definition(#"{"id": "g3", "type": "geopoint", "max_accuracy_m": "near"}"#),
            ],
            validInputs: ["51.5072, -0.1276 ±5m", "51.5072,-0.1276 5m", "-33.8688, 151.2093 +-12.5 m", "0,0 0m"],
            invalidInputs: [
                "", "51.5072", "91, 0 ±1m", "0, 181 ±1m", "51.5, -0.12", "51.5, -0.12 ±30m", "north, west", "1,2 ±-3m",
            ],
            validAnswers: [
                try answer(#"{"lat": 51.5072, "lon": -0.1276, "accuracy_m": 5}"#),
                try answer(#"{"lat": -90, "lon": 180, "accuracy_m": 0}"#), .null,
            ],
            invalidAnswers: [
                try answer(#"{"lat": 91, "lon": 0, "accuracy_m": 1}"#),
                try answer(#"{"lat": 0, "lon": -181, "accuracy_m": 1}"#),
                try answer(#"{"lat": 0, "lon": 0}"#), try answer(#"{"lat": 0, "lon": 0, "accuracy_m": 40}"#),
                try answer(#"{"lat": 0, "lon": 0, "accuracy_m": -1}"#), try answer(#"{"lat": "0", "lon": 0}"#),
                "51.5,-0.12", 4,
            ])
        let failures = FieldTypeConformance.check(GeopointField(), samples: samples)
        #expect(failures.isEmpty, "\(failures.map(\.description).joined(separator: "\n"))")
    }

    @Test("barcode conforms")
    func barcode() throws {
        let samples = ConformanceSamples(
            goodDefinition: try definition(
                #"{"id": "b", "type": "barcode", "label": "Asset tag", "pattern": "AT-[0-9]{5}"}"#),
            badDefinitions: [
                try definition(#"{"id": "b2", "type": "barcode", "pattern": "AT-[0-9"}"#),
                try definition(#"{"id": "b3", "type": "barcode", "pattern": 5}"#),
                try definition(#"{"id": "b4", "type": "barcode", "pattern": ""}"#),
            ],
            validInputs: ["AT-00042", "  AT-12345  "],
            invalidInputs: ["", "AT-1", "XAT-00042", "AT-00042X", "AT-000\n42"],
            validAnswers: ["AT-00042", .null, ""],
            invalidAnswers: ["AT-1", "at-00042", 42, "AT-00042\n", try answer(#"["AT-00042"]"#)])
        let failures = FieldTypeConformance.check(BarcodeField(), samples: samples)
        #expect(failures.isEmpty, "\(failures.map(\.description).joined(separator: "\n"))")
    }

    @Test("temperature conforms")
    func temperature() throws {
        let samples = ConformanceSamples(
            goodDefinition: try definition(
                #"{"id": "t", "type": "temperature", "label": "Fridge", "unit": "C", "allowed_min": 0, "allowed_max": 5}"#
            ),
            badDefinitions: [
                try definition(
                    #"{"id": "t2", "type": "temperature", "unit": "K", "allowed_min": 0, "allowed_max": 5}"#),
                try definition(#"{"id": "t3", "type": "temperature", "allowed_min": 0}"#),
                try definition(#"{"id": "t4", "type": "temperature", "allowed_min": 9, "allowed_max": 5}"#),
                try definition(#"{"id": "t5", "type": "temperature", "allowed_min": "cold", "allowed_max": 5}"#),
            ],
            validInputs: ["4.5", "40F", "4.5 °C", "-18c", "9", "n/a", "39.2 ℉"],
            invalidInputs: ["", "cold", "4,5", "4.5K", "-300", "1e3"],
            validAnswers: [
                try answer(#"{"value": 4.5, "unit": "C"}"#), try answer(#"{"value": 40, "unit": "F"}"#), 3, -2.5, "N/A",
                .null,
            ],
            invalidAnswers: [
                try answer(#"{"value": 4.5, "unit": "K"}"#), try answer(#"{"value": "4.5", "unit": "C"}"#),
                try answer(#"{"value": -500, "unit": "F"}"#), "4.5", true,
            ])
        let failures = FieldTypeConformance.check(TemperatureField(), samples: samples)
        #expect(failures.isEmpty, "\(failures.map(\.description).joined(separator: "\n"))")
    }

    @Test("duration conforms")
    func duration() throws {
        let samples = ConformanceSamples(
            goodDefinition: try definition(
                #"{"id": "d", "type": "duration", "label": "Deep clean", "min_seconds": 60, "max_seconds": 14400}"#),
            badDefinitions: [
                try definition(#"{"id": "d2", "type": "duration", "min_seconds": -1}"#),
                try definition(#"{"id": "d3", "type": "duration", "max_seconds": 1.5}"#),
                try definition(#"{"id": "d4", "type": "duration", "min_seconds": 600, "max_seconds": 60}"#),
            ],
            validInputs: ["1h30m", "90m", "01:30:00", "1h 30m 15s", "4h", "60s"],
            invalidInputs: ["", "90", "1:30", "45s", "5h", "30m1h", "1h1h", "soon", "01:75:00"],
            validAnswers: [5400, 60, 14400, .null],
            invalidAnswers: [59, 14401, -5, 1.5, "5400", try answer(#"{"seconds": 5400}"#)])
        let failures = FieldTypeConformance.check(DurationField(), samples: samples)
        #expect(failures.isEmpty, "\(failures.map(\.description).joined(separator: "\n"))")
    }

    @Test("meter reading conforms")
    func meterReading() throws {
        let photo = "3f2a9c1e-0b7d-4c55-9a61-2d8e4f6a7b90"
        let samples = ConformanceSamples(
            goodDefinition: try definition(
                #"{"id": "m", "type": "meter_reading", "label": "Electricity meter", "unit": "kWh"}"#),
            badDefinitions: [
                try definition(#"{"id": "m2", "type": "meter_reading", "unit": 5}"#),
                try definition(#"{"id": "m3", "type": "meter_reading", "unit": "  "}"#),
            ],
            validInputs: ["48213.7", "48213.7 kWh", "0", "  12 "],
            invalidInputs: ["", "-4", "lots", "4,5", "12 m3", "1e3"],
            validAnswers: [
                try answer(#"{"reading": 48213.7}"#), try answer(#"{"reading": 12, "photos": ["\#(photo)"]}"#),
                try answer(#"{"photos": ["\#(photo)"]}"#), .null,
            ],
            invalidAnswers: [
                try answer(#"{"reading": -1}"#), try answer(#"{"reading": "12"}"#),
                try answer(#"{"photos": ["dial.jpg"]}"#),
                try answer(#"{"photos": ["\#(photo)", "\#(photo)"]}"#), try answer(#"{"reading": 1, "note": "x"}"#), 12,
                "12",
            ])
        let failures = FieldTypeConformance.check(MeterReadingField(), samples: samples)
        #expect(failures.isEmpty, "\(failures.map(\.description).joined(separator: "\n"))")
    }

    @Test(
        "a meter reading takes a photo into its answer without losing the reading, and a typed reading keeps the photos"
    )
    func meterReadingPhotos() throws {
        let field = try definition(#"{"id": "m", "type": "meter_reading", "unit": "kWh"}"#)
        let type = MeterReadingField()
        #expect(type.takesPhotos && type.takesTypedAnswers)
        let typed = try type.parse(
            "48213.7 kWh", for: field, context: InputContext(deviceTime: Date(), contentDigest: ""))
        let withPhoto = type.attachingPhoto("aa", to: typed, for: field)
        #expect(withPhoto == ["reading": 48213.7, "photos": ["aa"]])
        #expect(type.attachingPhoto("aa", to: withPhoto, for: field) == withPhoto, "a photo is listed once")
        #expect(type.mergingTyped(["reading": 5], into: withPhoto, for: field) == ["reading": 5, "photos": ["aa"]])
        #expect(type.layout(withPhoto, for: field) == .photos(ids: ["aa"], caption: "Reading: 48213.7 kWh"))
        #expect(
            type.display(["photos": ["3f2a9c1e-0b7d-4c55-9a61-2d8e4f6a7b90"]], for: field, style: .plain)
                == "no reading yet, 1 photo")
    }

    @Test("the names are free in the built-in registry, so each composition root gains all of them")
    func registration() throws {
        let builtIn = FieldTypeRegistry.builtIn()
        for type in SiteFieldTypes.all { #expect(builtIn.type(named: type.name) == nil, "\(type.name)") }
        #expect(
            Set(registry.names).isSuperset(of: ["geopoint", "barcode", "temperature", "duration", "meter_reading"]))
        var explicit = FieldTypeRegistry.builtIn()
        try SiteFieldTypes.register(into: &explicit)
        #expect(explicit.names == registry.names)
        #expect(throws: FieldTypesError.self) { try SiteFieldTypes.register(into: &explicit) }
        #expect(explicit.names == registry.names, "a failed registration adds nothing")
    }

    @Test("copy policy: barcode copies; geopoint, temperature and duration are measured again")
    func copyPolicy() {
        #expect(BarcodeField().copiesOnReinspection)
        #expect(!GeopointField().copiesOnReinspection)
        #expect(!TemperatureField().copiesOnReinspection)
        #expect(!DurationField().copiesOnReinspection)
        #expect(SiteFieldTypes.all.filter(\.isScoreable).map(\.name) == ["temperature"])
    }
}
