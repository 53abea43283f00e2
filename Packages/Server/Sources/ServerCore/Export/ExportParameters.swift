import FieldTypes
import Foundation
import Models
import ServerStore

/// The query of an export route, checked against the parameters the route
/// knows: any other is refused with 400 naming it (contract 1.2), so a
/// mistyped filter (`frm=` for `from=`) never exports everything.
struct ExportParameters {
    private let query: [String: String]

    /// The query of a request to a route that knows `known`.
    init(_ query: [String: String], known: Set<String>) throws(ServerError) {
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw ServerError.badRequest(
                "unknown parameter \(OneLine.quote(unknown, limit: 40)); this export knows "
                    + known.sorted().joined(separator: ", "))
        }
        self.query = query
    }

    /// A parameter's value; an empty one is no value, as in every other filter of the contract.
    func value(_ name: String) -> String? { query[name].flatMap { $0.isEmpty ? nil : $0 } }

    /// `format`, one of `allowed` (the first without one).
    func format(_ allowed: [ExportFormat]) throws(ServerError) -> ExportFormat {
        guard let text = value("format") else { return allowed[0] }
        guard let format = ExportFormat(rawValue: text), allowed.contains(format) else {
            throw ServerError.badRequest(
                "'format' must be \(allowed.map(\.rawValue).joined(separator: " or ")), not \(OneLine.quote(text, limit: 40))"
            )
        }
        return format
    }

    /// `review_state`, one of the review's states.
    func reviewState() throws(ServerError) -> ReviewState? {
        guard let text = value("review_state") else { return nil }
        guard let state = ReviewState.allCases.first(where: { $0.rawValue == text }) else {
            let states = ReviewState.allCases.map(\.rawValue).joined(separator: ", ")
            throw ServerError.badRequest(
                "'review_state' must be one of \(states), not \(OneLine.quote(text, limit: 40))")
        }
        return state
    }

    /// A yes/no parameter: `true` or `false`, false when absent.
    func flag(_ name: String) throws(ServerError) -> Bool {
        switch value(name) {
        case nil, "false"?: return false
        case "true"?: return true
        case let text?:
            throw ServerError.badRequest("'\(name)' must be true or false, not \(OneLine.quote(text, limit: 40))")
        }
    }
}
