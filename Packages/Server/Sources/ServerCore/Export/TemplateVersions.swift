import Foundation
import Models
import ServerStore

/// The versions templates published, as an export needs them: which
/// version a report was judged against, and the fields of every version.
struct TemplateVersions: Sendable {
    /// Each template's versions, oldest first.
    private let byTemplate: [String: [PublishedVersion]]

    init(_ versions: [PublishedVersion]) {
        byTemplate = Dictionary(grouping: versions, by: \.templateID).mapValues {
            $0.sorted { $0.version < $1.version }
        }
    }

    /// The version a revision accepted at `acceptedAt` was judged against:
    /// the newest one published by then (the server judges a report that
    /// names no version against its current one). Versions imported before
    /// versions were recorded carry no time and count as published from the
    /// start. Nil when the template published none.
    func version(of templateID: String, acceptedAt: String) -> Int? {
        guard let versions = byTemplate[templateID], let oldest = versions.first else { return nil }
        return versions.last { $0.publishedAt <= acceptedAt }?.version ?? oldest.version
    }

    /// Every field id of any version of the template: the newest version's
    /// fields in its order, then fields only older versions had (newest
    /// first, each in its order). Sections and labels, which are never
    /// answered, are columns too: a column per field id, as the contract says.
    func fieldIDs(of templateID: String) -> [String] {
        var seen = Set<String>()
        var ids: [String] = []
        for version in (byTemplate[templateID] ?? []).reversed() {
            for id in Self.fieldIDs(inSchema: version.schemaJSON) where seen.insert(id).inserted {
                ids.append(id)
            }
        }
        return ids
    }

    /// Every field of any version of the template, in the order of
    /// `fieldIDs(of:)`, each as the newest version that has it defines it.
    func fields(of templateID: String) -> [TemplateField] {
        var seen = Set<String>()
        var fields: [TemplateField] = []
        for version in (byTemplate[templateID] ?? []).reversed() {
            for field in Self.fields(inSchema: version.schemaJSON) where seen.insert(field.id).inserted {
                fields.append(field)
            }
        }
        return fields
    }

    /// Whether the template published any version.
    func knows(_ templateID: String) -> Bool { byTemplate[templateID] != nil }

    /// The field ids of a stored `form_schema`, in order (integer ids as their digits).
    static func fieldIDs(inSchema json: String) -> [String] {
        fields(inSchema: json).map(\.id)
    }

    /// The fields of a stored `form_schema`, in order: a field without an id is left out.
    static func fields(inSchema json: String) -> [TemplateField] {
        guard let fields = CanonicalJSON.value(json)["fields"]?.arrayValue else { return [] }
        return fields.compactMap { field in
            let id: String? =
                switch field["id"] {
                case .string(let text)?: text
                case .integer(let number)?: String(number)
                case .double(let number)? where number == number.rounded(): String(Int64(number))
                default: nil
                }
            return id.map {
                TemplateField(
                    id: $0, label: field["label"]?.stringValue ?? "", type: field["type"]?.stringValue ?? "")
            }
        }
    }
}

/// A field of a template as an export names it: its id, label and type.
struct TemplateField: Sendable, Equatable {
    var id: String
    var label: String
    /// The type's name, to ask the registry what the type can do.
    var type: String
}
