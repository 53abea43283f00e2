/// The three-way merge of a report's answers by field, for disjoint edits
/// (contract 1.1 "Merging disjoint edits"): the answers of the revision both
/// sides started from, the device's and the server's current ones.
///
/// A field *changed* on a side when its answer there differs from the base,
/// by JSON value (numbers by value, objects regardless of key order, absent
/// equal to `null`). `follow_up_required` counts as a field of that name and
/// issues as fields `issue:<local_id>`. Calculated fields are never compared:
/// whoever judges the merged answers computes them again. Both sides changing
/// one field to different values is a conflict on that field; otherwise the
/// merge is the server's answers with the device's changes applied.
public struct AnswerMerge: Sendable, Equatable {
    /// One side's answers, follow-up flag and issues.
    public struct Side: Sendable, Equatable {
        public var answers: [String: JSONValue]
        public var followUpRequired: Bool
        public var issues: [WireIssue]

        public init(answers: [String: JSONValue], followUpRequired: Bool, issues: [WireIssue]) {
            self.answers = answers
            self.followUpRequired = followUpRequired
            self.issues = issues
        }
    }

    /// What the merge gives.
    public enum Outcome: Sendable, Equatable {
        /// The merged side (calculated fields left out) and what of it came from the server's side.
        case merged(Side, mergedFields: [String])
        /// The fields both sides changed to different values, or the signatures a merge would break.
        case conflict([String])
    }

    /// The name `follow_up_required` has among the fields.
    public static let followUpField = "follow_up_required"

    /// The name of an issue among the fields.
    public static func issueField(_ localID: String) -> String { "issue:\(localID)" }

    /// The fields of the template in form order (names outside it sort after, by name).
    public var fieldOrder: [String]
    /// Fields whose answers are computed: never compared, left out of the merge.
    public var calculatedFields: Set<String>
    /// Signature fields: a device's answered signature never has the answers it sealed changed by a merge.
    public var signatureFields: Set<String>

    public init(fieldOrder: [String], calculatedFields: Set<String>, signatureFields: Set<String>) {
        self.fieldOrder = fieldOrder
        self.calculatedFields = calculatedFields
        self.signatureFields = signatureFields
    }

    /// The merge of `device` and `server`, both edited from `base`.
    public func merge(base: Side, device: Side, server: Side) -> Outcome {
        var answers: [String: JSONValue] = [:]
        var conflicts: [String] = []
        var fromServer: [String] = []
        let keys = Set(base.answers.keys).union(device.answers.keys).union(server.answers.keys).subtracting(
            calculatedFields)
        for key in keys {
            switch Self.pick(base.answers[key], device.answers[key], server.answers[key]) {
            case .conflict: conflicts.append(key)
            case .value(let value, let serverSide):
                if let value, value != .null { answers[key] = value }
                if serverSide { fromServer.append(key) }
            }
        }
        var followUp = server.followUpRequired
        switch Self.pick(.bool(base.followUpRequired), .bool(device.followUpRequired), .bool(server.followUpRequired)) {
        case .conflict: conflicts.append(Self.followUpField)
        case .value(let value, let serverSide):
            followUp = value?.boolValue ?? false
            if serverSide { fromServer.append(Self.followUpField) }
        }
        let issues = mergeIssues(
            base: base.issues, device: device.issues, server: server.issues,
            conflicts: &conflicts, fromServer: &fromServer)
        if !conflicts.isEmpty { return .conflict(ordered(conflicts)) }
        let compared = Set(device.answers.keys).union(answers.keys).subtracting(calculatedFields).subtracting(
            signatureFields)
        let changesDevice = compared.contains { !Self.same(answers[$0], device.answers[$0]) }
        let brokenSignatures = changesDevice ? signatureFields.filter { (device.answers[$0] ?? .null) != .null } : []
        if !brokenSignatures.isEmpty { return .conflict(ordered(Array(brokenSignatures))) }
        return .merged(
            Side(answers: answers, followUpRequired: followUp, issues: issues), mergedFields: ordered(fromServer))
    }

    /// Issues by `local_id`: the server's in its order, then those only the device has, each picked like a field.
    private func mergeIssues(
        base: [WireIssue], device: [WireIssue], server: [WireIssue],
        conflicts: inout [String], fromServer: inout [String]
    ) -> [WireIssue] {
        func byID(_ issues: [WireIssue]) -> [String: WireIssue] {
            Dictionary(issues.map { ($0.localID.uuidString.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        }
        let (b, d, s) = (byID(base), byID(device), byID(server))
        var order: [String] = []
        for issue in server + device + base {
            let id = issue.localID.uuidString.lowercased()
            if !order.contains(id) { order.append(id) }
        }
        var merged: [WireIssue] = []
        for id in order {
            let name = Self.issueField(id)
            let base = b[id], device = d[id], server = s[id]
            let deviceChanged = device != base, serverChanged = server != base
            if deviceChanged && serverChanged && device != server {
                conflicts.append(name)
            } else if deviceChanged {
                if let device { merged.append(device) }
            } else {
                if let server { merged.append(server) }
                if serverChanged { fromServer.append(name) }
            }
        }
        return merged
    }

    private enum Pick {
        case conflict
        case value(JSONValue?, serverSide: Bool)
    }

    private static func pick(_ base: JSONValue?, _ device: JSONValue?, _ server: JSONValue?) -> Pick {
        let deviceChanged = !same(device, base), serverChanged = !same(server, base)
        if deviceChanged && serverChanged {
            return same(device, server) ? .value(server, serverSide: false) : .conflict
        }
        if deviceChanged { return .value(device, serverSide: false) }
        return .value(server, serverSide: serverChanged)
    }

    /// Equal as JSON values: numbers by value, objects regardless of key order, absent equal to `null`.
    public static func same(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
        switch (a ?? .null, b ?? .null) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.integer(let x), .integer(let y)): return x == y
        case (.integer, .double), (.double, .integer), (.double, .double):
            return (a ?? .null).numberValue == (b ?? .null).numberValue
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
        default: return false
        }
    }

    /// Names in form order, then `follow_up_required`, then issues and others by name.
    private func ordered(_ names: [String]) -> [String] {
        let position = Dictionary(fieldOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return names.sorted { a, b in
            switch (position[a], position[b]) {
            case let (x?, y?): return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a == Self.followUpField || (b != Self.followUpField && a < b)
            }
        }
    }
}
