import Foundation
import FieldTypes
import FormLogic
import Models
import Storage

/// What a reference-data import did.
public struct ImportSummary: Sendable {
    public var imported: [String]
    /// Things worth knowing that did not stop the import.
    public var warnings: [String]
    /// The file imported, as given.
    public var source: String = ""
    /// How many areas a facilities file brought with its facilities.
    public var areas: Int = 0
    /// Drafts the templates imported moved onto their newest versions.
    public var moved: [DraftsMoved] = []
}

extension Workspace {
    /// Reads a JSON file given on the command line: refused clearly when missing,
    /// too large (reference files are small), or not JSON. An `{"ok": true, "data": ...}`
    /// envelope is unwrapped.
    public static func readReferenceFile(_ path: String, limit: Int = 20 * 1024 * 1024) throws(AppError) -> JSONValue {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw AppError.notFound("No file '\(path)'. Check the path.")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= limit else {
            throw AppError.validation(
                "'\(path)' is \(size / (1024 * 1024)) MB; reference files over \(limit / (1024 * 1024)) MB are refused.",
                code: .fileTooLarge)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AppError.validation("Cannot read '\(path)'. Check its permissions.", code: .fileUnreadable)
        }
        let json: JSONValue
        do { json = try JSONValue.parse(data) } catch {
            throw AppError.validation("'\(path)': \(error.message). Nothing was imported.", code: .invalidJson)
        }
        if json["ok"] == .bool(true), let inner = json["data"] { return inner }
        return json
    }

    /// Every problem of every template in a document of one template or a `{"templates": [...]}` list,
    /// for `jqc templates lint` (see `TemplateLint`, which `jqc-server` runs
    /// before it publishes a template).
    public static func lintTemplates(_ document: JSONValue, source: String, registry: FieldTypeRegistry) -> (
        templates: [String], problems: [String]
    ) {
        TemplateLint.problems(document, source: source, registry: registry)
    }

    /// Imports templates from a file; all or nothing. What `jqc templates lint`
    /// reports as a problem (a field type this jqc does not know, an operator,
    /// the grid) refuses the import, every problem listed, so a template is
    /// never imported with a field nobody can answer.
    public func importTemplates(path: String) throws(AppError) -> ImportSummary {
        let document = TemplateLint.listed(try Self.readReferenceFile(path))
        // A field type whose program is installed but not answering now is the
        // program's problem, not the template's: the import goes on, its answers degrade.
        let problems = TemplateLint.problems(document, source: path, registry: registry, reportingUnavailable: false)
            .problems
        guard problems.isEmpty else {
            throw AppError.validation(
                "'\(path)' has \(problems.count) problem\(problems.count == 1 ? "" : "s"); nothing was imported.",
                problems: problems, code: .templateInvalid)
        }
        // The lint decoded every template already: none fails here.
        let templates = (document["templates"]?.arrayValue ?? []).compactMap { try? Template.decode($0).get() }
        try storage { () throws(StorageError) in try store.upsertTemplates(templates) }
        // Drafts on an older version move onto the newest now, all of a template in one transaction.
        let moved = try moveDraftsToNewestVersions(of: templates.map(\.id))
        return ImportSummary(imported: templates.map(\.id), warnings: [], source: path, moved: moved)
    }

    /// Imports facilities and their areas from a file, merged by id into what is cached; all or nothing.
    public func importFacilities(path: String) throws(AppError) -> ImportSummary {
        let document = try Self.readReferenceFile(path)
        guard let facilityList = document["facilities"] else {
            throw AppError.validation(
                "'\(path)' has no \"facilities\" list; expected {\"facilities\": [...], \"areas\": [...]}.",
                code: .invalidReference)
        }
        let facilities: [Facility] = try Self.decodeList(
            facilityList, as: Facility.self, what: "facilities", path: path)
        let areas: [Area] =
            try document["areas"].map { (list) throws(AppError) in
                try Self.decodeList(list, as: Area.self, what: "areas", path: path)
            } ?? []
        let existing = try storage { () throws(StorageError) in try store.facilities() }
        var merged = Dictionary(existing.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for facility in facilities { merged[facility.id] = facility }
        var allAreas: [Area] = []
        for facility in merged.keys.sorted() {
            allAreas += try storage { () throws(StorageError) in try store.areas(facilityID: facility) }
        }
        var areaMap = Dictionary(allAreas.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for area in areas {
            guard merged[area.facilityID] != nil else {
                throw AppError.validation(
                    "'\(path)': area '\(area.id)' names facility '\(area.facilityID)', which is neither in the file nor on this device; nothing was imported.",
                    code: .invalidReference)
            }
            areaMap[area.id] = area
        }
        let facilitiesToStore = merged.keys.sorted().compactMap { merged[$0] }
        let areasToStore = areaMap.keys.sorted().compactMap { areaMap[$0] }
        try storage { () throws(StorageError) in try store.replaceFacilities(facilitiesToStore, areas: areasToStore) }
        return ImportSummary(imported: facilities.map(\.id), warnings: [], source: path, areas: areas.count)
    }

    /// Imports assignments from a file (`{"assignments": [...], "cursor": ...}` as GET /assignments returns).
    public func importAssignments(path: String) throws(AppError) -> ImportSummary {
        let document = try Self.readReferenceFile(path)
        guard let list = document["assignments"] else {
            throw AppError.validation(
                "'\(path)' has no \"assignments\" list; expected {\"assignments\": [...]}.", code: .invalidReference)
        }
        let assignments: [Assignment] = try Self.decodeList(list, as: Assignment.self, what: "assignments", path: path)
        try storage { () throws(StorageError) in try store.upsertAssignments(assignments, cursor: nil) }
        return ImportSummary(imported: assignments.map(\.id), warnings: [], source: path)
    }

    static func decodeList<T: Decodable>(_ list: JSONValue, as type: T.Type, what: String, path: String)
        throws(AppError) -> [T]
    {
        guard let items = list.arrayValue else {
            throw AppError.validation(
                "'\(path)': \"\(what)\" must be a list, not \(list.kindDescription); nothing was imported.",
                code: .invalidReference)
        }
        var result: [T] = []
        for (index, item) in items.enumerated() {
            do {
                result.append(try JSONDecoder().decode(T.self, from: item.canonicalData()))
            } catch {
                throw AppError.validation(
                    "'\(path)': \(what) item \(index + 1) is not valid (\(ModelsErrorText.describe(error))); nothing was imported.",
                    code: .invalidReference)
            }
        }
        return result
    }
}

/// Short descriptions of decoding failures for one-line messages.
enum ModelsErrorText {
    public static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "'\(key.stringValue)' is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "'\(path)': \(context.debugDescription)"
        default: return "\(error)"
        }
    }
}
