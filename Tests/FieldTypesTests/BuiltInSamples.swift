import FieldTypeConformance
import FieldTypes
import Models
import Testing

/// One field type with the real samples the conformance kit runs it against.
struct TypeSamples: Sendable, CustomTestStringConvertible {
    let type: any FieldType
    let samples: ConformanceSamples
    var testDescription: String { type.name }
}

/// Real samples for every built-in type and the unsupported fallback.
enum BuiltInSamples {
    static let all: [TypeSamples] = [
        TypeSamples(
            type: TextField(),
            samples: ConformanceSamples(
                goodDefinition: field("text", label: "Restroom name"),
                validInputs: ["Lobby", "  East wing  ", "A=1;B", "Zoë's café"],
                invalidInputs: ["", "   ", "\n"],
                validAnswers: ["", "Lobby", "two\nlines"],
                invalidAnswers: [1, true, [], [:]])),
        TypeSamples(
            type: EmailField(),
            samples: ConformanceSamples(
                goodDefinition: field("email", label: "Supervisor email"),
                validInputs: ["a@b.co", " dana.reyes@example.org "],
                invalidInputs: ["", "dana", "a@b", "a b@c.de", "@x.org", "a@@b.org", "a@b.c0"],
                validAnswers: ["", "x@y.org"],
                invalidAnswers: ["nope", "x@y", 5, ["x@y.org"]])),
        TypeSamples(
            type: TextareaField(),
            samples: ConformanceSamples(
                goodDefinition: field("textarea", label: "Notes"),
                validInputs: ["line one\nline two", "short"],
                invalidInputs: ["", " \n\t "],
                validAnswers: ["", "a\nb"],
                invalidAnswers: [3.5, [:]])),
        TypeSamples(
            type: NumberField(),
            samples: ConformanceSamples(
                goodDefinition: field("number", label: "Stalls"),
                validInputs: ["12", "-3.5", "1e3", "+2", ".5", "0", "007"],
                invalidInputs: ["", "twelve", "1,5", "12 kg", "nan", "inf", "0x10", "1e", "--1", "1e999"],
                validAnswers: [12, -3.5, 0],
                invalidAnswers: ["12", true, [1], [:]])),
        TypeSamples(
            type: DateField(),
            samples: ConformanceSamples(
                goodDefinition: field("date", label: "Last deep clean"),
                validInputs: ["2026-03-01", "today", "TODAY", "2024-02-29"],
                invalidInputs: ["", "2026-02-30", "2026-2-3", "03/01/2026", "2025-02-29", "2026-13-01", "yesterday"],
                validAnswers: ["2026-03-01", ""],
                invalidAnswers: ["2026-02-30", 20_260_301, "2026-03-01T00:00:00Z"])),
        TypeSamples(
            type: CheckboxField(),
            samples: ConformanceSamples(
                goodDefinition: field("checkbox", label: "Soap dispensers full"),
                validInputs: ["yes", "no", "Y", "n", "true", "FALSE", "1", "0", "x", "n/a"],
                invalidInputs: ["", "maybe", "2"],
                validAnswers: [true, false, "true", "false", "N/A"],
                invalidAnswers: ["yes", 1, [true]])),
        TypeSamples(
            type: CheckboxGroupField(),
            samples: ConformanceSamples(
                goodDefinition: supplies,
                badDefinitions: [
                    FieldDefinition(id: "b1", type: "checkbox_group", label: "No options"),
                    FieldDefinition(id: "b2", type: "checkbox_group", label: "Empty", options: []),
                    FieldDefinition(id: "b3", type: "checkbox_group", label: "Twice", options: ["Soap", "soap"]),
                    FieldDefinition(id: "b4", type: "checkbox_group", label: "Blank", options: ["", "Soap"]),
                ],
                validInputs: ["1,3", "soap, toilet paper", "Paper towels", "2", "3,1,"],
                invalidInputs: ["", "4", "Bleach", "1,1", "soap,1", ","],
                validAnswers: [["Soap"], [], ["Soap", "Toilet paper"]],
                invalidAnswers: [["Bleach"], ["Soap", "Soap"], "Soap", [1]])),
        TypeSamples(
            type: RadioField(),
            samples: ConformanceSamples(
                goodDefinition: floor,
                badDefinitions: [
                    FieldDefinition(id: "b1", type: "radio", label: "No options"),
                    FieldDefinition(id: "b2", type: "radio", label: "Empty", options: []),
                    FieldDefinition(id: "b3", type: "radio", label: "Twice", options: ["Yes", " yes "]),
                ],
                validInputs: ["good", "2", " POOR ", "n/a"],
                invalidInputs: ["", "4", "0", "Excellent"],
                validAnswers: ["Good", "N/A", ""],
                invalidAnswers: ["good", "Excellent", 1, ["Good"]])),
        TypeSamples(
            type: SelectField(),
            samples: ConformanceSamples(
                goodDefinition: shift,
                badDefinitions: [
                    FieldDefinition(id: "b1", type: "select", label: "No options"),
                    FieldDefinition(id: "b2", type: "select", label: "Blank", options: [" "]),
                ],
                validInputs: ["morning", "3"],
                invalidInputs: ["", "n/a", "Noon", "4"],
                validAnswers: ["Night", ""],
                invalidAnswers: ["N/A", "night", 2])),
        TypeSamples(
            type: RatingField(),
            samples: ConformanceSamples(
                goodDefinition: stars,
                badDefinitions: [
                    FieldDefinition(id: "b1", type: "rating", label: "Zero scale", max: 0),
                    FieldDefinition(id: "b2", type: "rating", label: "Huge scale", max: 11),
                    FieldDefinition(id: "b3", type: "rating", label: "Threshold above", extra: ["pass_min": 6]),
                    FieldDefinition(id: "b4", type: "rating", label: "Threshold words", extra: ["pass_min": "three"]),
                ],
                validInputs: [
                    "4", "4/5", "****", "\u{2605}\u{2605}\u{2605}\u{2605}\u{2606}", "[***--]", "0", "n/a", "5",
                ],
                invalidInputs: ["", "6", "-1", "4/10", "******", "good", "3.5"],
                validAnswers: [0, 1, 5, "N/A", 4.0],
                invalidAnswers: [6, -1, 3.5, "4", true])),
        TypeSamples(
            type: PassFailField(),
            samples: ConformanceSamples(
                goodDefinition: field("pass_fail", label: "No biohazard present"),
                validInputs: ["pass", "FAIL", "p", "f", "n/a", "NA"],
                invalidInputs: ["", "yes", "passed", "ok"],
                validAnswers: ["pass", "fail", "N/A"],
                invalidAnswers: ["Pass", "yes", true, 1])),
        TypeSamples(
            type: SignatureField(),
            samples: ConformanceSamples(
                goodDefinition: field("signature", label: "Inspector signature"),
                validInputs: ["Dana Reyes", "  Lee  "],
                invalidInputs: ["", "  "],
                validAnswers: [
                    signature("Dana Reyes"), .string(photoA), signature("Lee", at: "2026-03-01T15:02:00.250+01:00"),
                ],
                invalidAnswers: [
                    signature(""), signature("Dana", sha256: "abc"), signature("Dana", at: "yesterday"),
                    "Dana", 5, ["signer": "Dana"],
                ])),
        TypeSamples(
            type: ImageField(),
            samples: ConformanceSamples(
                goodDefinition: field("image", label: "Photos"),
                invalidInputs: ["photo.jpg", "", photoA],
                validAnswers: [[.string(photoA)], [], [.string(photoA), .string(photoB)]],
                invalidAnswers: [["not-a-uuid"], [.string(photoA), .string(photoA.uppercased())], .string(photoA), 3])),
        TypeSamples(
            type: TableField(),
            samples: ConformanceSamples(
                goodDefinition: repairs,
                badDefinitions: [
                    FieldDefinition(id: "b1", type: "table", label: "No columns"),
                    FieldDefinition(id: "b2", type: "table", label: "Empty", columns: []),
                    FieldDefinition(id: "b3", type: "table", label: "Twice", columns: ["Area", "area"]),
                    FieldDefinition(id: "b4", type: "table", label: "Blank", columns: [""]),
                ],
                validInputs: [
                    "Fixture=Sink;Problem=Leak", "fixture = Tap ; urgency=high", "Problem=a=b", "Problem=x\\;y",
                ],
                invalidInputs: ["", "Sink", "Color=red", "Fixture=a;Fixture=b", ";;"],
                validAnswers: [[["Fixture": "Sink"]], []],
                invalidAnswers: [[["Colour": "x"]], [[:]], [["Fixture": 3]], ["Fixture": "x"], ["row"]])),
        TypeSamples(
            type: SectionField(),
            samples: ConformanceSamples(
                goodDefinition: field("section", label: "Restroom"),
                badDefinitions: [
                    FieldDefinition(id: "b1", type: "section", label: "Kitchen", required: true),
                    FieldDefinition(id: "b2", type: "section", label: ""),
                ],
                invalidInputs: ["x", "", "Restroom"],
                invalidAnswers: ["x", true, ""])),
        TypeSamples(
            type: LabelField(),
            samples: ConformanceSamples(
                goodDefinition: field("label", label: "Check every stall before answering."),
                badDefinitions: [
                    FieldDefinition(id: "b1", type: "label", label: "Read this", required: true),
                    FieldDefinition(id: "b2", type: "label", label: "  "),
                ],
                invalidInputs: ["ok", ""],
                invalidAnswers: ["ok", 1])),
        TypeSamples(
            type: UnsupportedFieldType(name: "geopoint"),
            samples: ConformanceSamples(
                goodDefinition: field("geopoint", label: "Location"),
                invalidInputs: ["51.5,-0.1", ""],
                validAnswers: [["lat": 51.5, "lon": -0.1], "anything", 3])),
    ]
}
