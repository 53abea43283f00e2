import FieldTypes
import Foundation
import Models
import ServerStore

/// The management API (`/api/v1/admin/...`): admins only. Every route
/// answers 403 to any other role before it reads anything else.
struct AdminRoutes: RouteCapability {
    let context: ServerContext

    func administer(_ operation: AdminOperation, _ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        guard caller.isAdmin else { throw ServerError.forbidden("the management API is for admins only") }
        let actor = AdminActor(id: caller.user.id, name: caller.user.displayName)
        let admin = administration
        switch operation {
        case .facilities:
            return .ok(["facilities": .array(try admin.facilities().map(AdminWire.facility))] as JSONValue)
        case .addFacility: return try addFacility(input, admin, actor)
        case .changeFacility: return try changeFacility(input, admin, actor)
        case .importFacilities: return try importFacilities(input, admin, actor)
        case .areas: return try areas(input, admin, actor)
        case .addArea: return try addArea(input, admin, actor)
        case .changeArea: return try changeArea(input, admin, actor)
        case .importAreas: return try importAreas(input, admin, actor)
        case .assignments:
            let list = try admin.assignments(inspector: input.request.query["inspector"])
            return .ok(["assignments": .array(list.map(AdminWire.assignment))] as JSONValue)
        case .createAssignment: return try createAssignment(input, admin, actor)
        case .changeAssignment: return try changeAssignment(input, admin, actor)
        case .importAssignments:
            let outcome = try admin.importAssignments(try Self.importBody(input), source: "the request", by: actor)
            return .ok(["assignments": outcome.json] as JSONValue)
        case .schedules: return try schedules(admin)
        case .addSchedule: return try addSchedule(input, admin, actor)
        case .changeSchedule: return try changeSchedule(input, admin, actor)
        case .removeSchedule: return try removeSchedule(input, admin, actor)
        case .templates:
            return .ok(["templates": .array(try admin.templates().map(AdminWire.template))] as JSONValue)
        case .publishTemplates: return try publishTemplates(input, admin, actor)
        case .changeTemplate: return try changeTemplate(input, admin, actor)
        case .users:
            return .ok(
                [
                    "users": .array(
                        try admin.usersAndFacilities().map { AdminWire.user($0.user, facilities: $0.facilities) })
                ] as JSONValue)
        case .addUser: return try addUser(input, admin, actor)
        case .changeUser: return try changeUser(input, admin, actor)
        case .userMail:
            return .ok(
                ["mail": AdminWire.mail(try admin.mailSetup(try input.parameter("id"), byID: true))] as JSONValue)
        case .changeUserMail: return try changeUserMail(input, admin, actor)
        case .events: return try events(input, admin, actor)
        }
    }

    /// A new facility from the body; 201.
    private func addFacility(_ input: RouteInput, _ admin: Administration, _ actor: AdminActor)
        throws(ServerError) -> Reply
    {
        let body = try input.decode(JSONValue.self)
        let facility = Facility(
            id: try Self.text(body, "id"), name: try Self.text(body, "name"),
            address: try Self.text(body, "address", optional: true) ?? "",
            projectName: try Self.text(body, "project_name", optional: true) ?? "")
        return .ok(
            ["facility": AdminWire.facility(try admin.addFacility(facility, by: actor))] as JSONValue, status: 201)
    }

    /// A facility renamed, moved or re-projected, and retired or restored:
    /// every member checked first, then one transaction.
    private func changeFacility(_ input: RouteInput, _ admin: Administration, _ actor: AdminActor)
        throws(ServerError) -> Reply
    {
        let id = try input.parameter("id")
        let body = try input.decode(JSONValue.self)
        let edit = Administration.FacilityChange(
            name: try Self.text(body, "name", optional: true), address: try Self.text(body, "address", optional: true),
            projectName: try Self.text(body, "project_name", optional: true), retired: try Self.flag(body, "retired"))
        return .ok(["facility": AdminWire.facility(try admin.changeFacility(id: id, edit, by: actor))] as JSONValue)
    }

    /// Facilities and their areas from a CSV or JSON table in the body.
    private func importFacilities(_ input: RouteInput, _ admin: Administration, _ actor: AdminActor)
        throws(ServerError) -> Reply
    {
        let (sites, areas) = try admin.importFacilities(
            try Self.importBody(input), source: "the request", by: actor)
        return .ok(["facilities": sites.json, "areas": areas.json] as JSONValue)
    }

    /// The areas, of one facility when `facility_id` names it.
    private func areas(_ input: RouteInput, _ admin: Administration, _ actor: AdminActor)
        throws(ServerError) -> Reply
    {
        return .ok(
            ["areas": .array(try admin.areas(facilityID: input.request.query["facility_id"]).map(AdminWire.area))]
                as JSONValue)
    }

    /// A new area of a facility; 201.
    private func addArea(_ input: RouteInput, _ admin: Administration, _ actor: AdminActor)
        throws(ServerError) -> Reply
    {
        let body = try input.decode(JSONValue.self)
        let area = Area(
            id: try Self.text(body, "id"), facilityID: try Self.text(body, "facility_id"),
            name: try Self.text(body, "name"),
            areaType: try Self.text(body, "area_type", optional: true) ?? "")
        return .ok(["area": AdminWire.area(try admin.addArea(area, by: actor))] as JSONValue, status: 201)
    }

    /// An area renamed or re-typed, and retired or restored: every member
    /// checked first, then one transaction.
    private func changeArea(_ input: RouteInput, _ admin: Administration, _ actor: AdminActor)
        throws(ServerError) -> Reply
    {
        let id = try input.parameter("id")
        let body = try input.decode(JSONValue.self)
        let edit = Administration.AreaChange(
            name: try Self.text(body, "name", optional: true),
            areaType: try Self.text(body, "area_type", optional: true), retired: try Self.flag(body, "retired"))
        return .ok(["area": AdminWire.area(try admin.changeArea(id: id, edit, by: actor))] as JSONValue)
    }

    /// Areas from a table in the body.
    private func importAreas(_ input: RouteInput, _ admin: Administration, _ actor: AdminActor)
        throws(ServerError) -> Reply
    {
        return .ok(
            ["areas": try admin.importAreas(try Self.importBody(input), source: "the request", by: actor).json]
                as JSONValue)
    }

    /// A new assignment of a template at a site to an inspector; 201.
    private func createAssignment(_ input: RouteInput, _ admin: Administration, _ actor: AdminActor)
        throws(ServerError) -> Reply
    {
        let body = try input.decode(JSONValue.self)
        let request = Administration.AssignmentRequest(
            id: try Self.text(body, "id", optional: true), inspector: try Self.text(body, "inspector"),
            templateID: try Self.text(body, "template_id"), facilityID: try Self.text(body, "facility_id"),
            areaID: try Self.text(body, "area_id", optional: true),
            due: try Self.text(body, "due_at", optional: true))
        return .ok(
            ["assignment": AdminWire.assignment(try admin.createAssignment(request, by: actor))] as JSONValue,
            status: 201)
    }

    /// An assignment changed, or cancelled with `"cancelled": true` and
    /// nothing else (400 with other members: nothing is half done).
    private func changeAssignment(_ input: RouteInput, _ admin: Administration, _ actor: AdminActor)
        throws(ServerError) -> Reply
    {
        let id = try input.parameter("id")
        let body = try input.decode(JSONValue.self)
        let cancelled = try Self.flag(body, "cancelled")
        let edit = Administration.AssignmentChange(
            templateID: try Self.text(body, "template_id", optional: true),
            facilityID: try Self.text(body, "facility_id", optional: true),
            areaID: try Self.text(body, "area_id", optional: true, nullClears: true),
            due: try Self.text(body, "due_at", optional: true, nullClears: true))
        if cancelled == true {
            guard edit.templateID == nil, edit.facilityID == nil, edit.areaID == nil, edit.due == nil else {
                throw ServerError.badRequest(
                    "cancel an assignment with {\"cancelled\": true} alone; nothing was changed or cancelled")
            }
            return .ok(
                ["assignment": AdminWire.assignment(try admin.cancelAssignment(id: id, by: actor))] as JSONValue)
        }
        return .ok(
            ["assignment": AdminWire.assignment(try admin.changeAssignment(id: id, edit, by: actor))] as JSONValue)
    }

    /// Templates published from the body, each a new version; 201.
    private func publishTemplates(_ input: RouteInput, _ admin: Administration, _ actor: AdminActor)
        throws(ServerError) -> Reply
    {
        let published = try admin.publishTemplates(
            try input.decode(JSONValue.self), source: "the request", by: actor)
        return .ok(["templates": .array(published.map(AdminWire.publication))] as JSONValue, status: 201)
    }

    /// A template retired or restored.
    private func changeTemplate(_ input: RouteInput, _ admin: Administration, _ actor: AdminActor)
        throws(ServerError) -> Reply
    {
        let id = try input.parameter("id")
        guard let retired = try Self.flag(try input.decode(JSONValue.self), "retired") else {
            throw ServerError.badRequest(
                "send {\"retired\": true} or {\"retired\": false}; publish a new version with POST /admin/templates"
            )
        }
        return .ok(
            ["template": AdminWire.template(try admin.setTemplateRetired(id: id, retired: retired, by: actor))]
                as JSONValue)
    }

    /// A new account; 201.
    private func addUser(_ input: RouteInput, _ admin: Administration, _ actor: AdminActor)
        throws(ServerError) -> Reply
    {
        let body = try input.decode(JSONValue.self)
        let facilities = try Self.strings(body, "facilities") ?? []
        let user = try admin.addUser(
            username: try Self.text(body, "username"), password: try Self.text(body, "password"),
            role: try Self.role(body) ?? .inspector,
            displayName: try Self.text(body, "display_name", optional: true), facilities: facilities, by: actor)
        return .ok(
            ["user": AdminWire.user(user, facilities: user.role == .client ? facilities : nil)] as JSONValue,
            status: 201)
    }

    /// An account's role, name, password and whether it is disabled: every
    /// member checked first, then one transaction (one refusal changes nothing).
    private func changeUser(_ input: RouteInput, _ admin: Administration, _ actor: AdminActor)
        throws(ServerError) -> Reply
    {
        let id = try input.parameter("id")
        let body = try input.decode(JSONValue.self)
        let edit = Administration.UserChange(
            role: try Self.role(body), displayName: try Self.text(body, "display_name", optional: true),
            password: try Self.text(body, "password", optional: true), disabled: try Self.flag(body, "disabled"),
            facilities: try Self.strings(body, "facilities"))
        let user = try admin.updateUser(id, edit, by: actor)
        let facilities = user.role == .client ? try admin.clientFacilities(user) : nil
        return .ok(["user": AdminWire.user(user, facilities: facilities)] as JSONValue)
    }

    /// A person's address and mail choices from the body (`email`, null or "" to remove it;
    /// `alerts`; `digest`; `digest_locked`); members left out stay as they are.
    private func changeUserMail(_ input: RouteInput, _ admin: Administration, _ actor: AdminActor)
        throws(ServerError) -> Reply
    {
        let body = try input.decode(JSONValue.self)
        guard case .object(let members) = body else { throw ServerError.badRequest("the body must be an object") }
        let known: Set<String> = ["email", "alerts", "digest", "digest_locked"]
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw ServerError.badRequest("'\(OneLine.escaped(String(unknown.prefix(40))))' is not a mail setting")
        }
        var change = Administration.MailChange()
        change.email = try Self.text(body, "email", optional: true, nullClears: true)
        change.alerts = try Self.strings(body, "alerts").map { (names) throws(ServerError) in
            try MailPeople.alertList(names.isEmpty ? "none" : names.joined(separator: ","))
        }
        change.digest = try Self.text(body, "digest", optional: true).map { (text) throws(ServerError) in
            guard let digest = DigestFrequency(rawValue: text) else {
                throw ServerError.badRequest("'digest' must be off, daily or weekly")
            }
            return digest
        }
        change.digestLocked = try Self.flag(body, "digest_locked")
        let setup = try admin.changeMail(try input.parameter("id"), change, byID: true, asAdmin: true, by: actor)
        return .ok(["mail": AdminWire.mail(setup)] as JSONValue)
    }

    /// The newest administration events, `limit` of them before `before`.
    private func events(_ input: RouteInput, _ admin: Administration, _ actor: AdminActor)
        throws(ServerError) -> Reply
    {
        let limit = try Self.limit(input.request.query["limit"])
        let before = try input.request.query["before"].map { (text) throws(ServerError) -> Int64 in
            guard let value = Int64(text), value > 0 else {
                throw ServerError.badRequest("'before' must be an event's seq")
            }
            return value
        }
        return .ok(
            ["events": .array(try admin.events(limit: limit, before: before).map(AdminWire.event))] as JSONValue)
    }

    /// A text member of a JSON body; 400 when required and missing, or not text.
    /// With `nullClears`, an explicit null reads as "" (clear the value).
    static func text(_ body: JSONValue, _ key: String, optional: Bool = false, nullClears: Bool = false)
        throws(ServerError) -> String?
    {
        switch body[key] {
        case .string(let text)?: return text
        case .null? where nullClears: return ""
        case nil, .null?:
            if optional { return nil }
            throw ServerError.badRequest("'\(key)' is missing")
        default: throw ServerError.badRequest("'\(key)' must be a string")
        }
    }

    static func text(_ body: JSONValue, _ key: String) throws(ServerError) -> String {
        try text(body, key, optional: false) ?? ""
    }

    static func flag(_ body: JSONValue, _ key: String) throws(ServerError) -> Bool? {
        switch body[key] {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        default: throw ServerError.badRequest("'\(key)' must be true or false")
        }
    }

    /// A list of strings at `key`; nil when absent.
    static func strings(_ body: JSONValue, _ key: String) throws(ServerError) -> [String]? {
        guard let value = body[key], !value.isNull else { return nil }
        guard let items = value.arrayValue, items.count <= 1000 else {
            throw ServerError.badRequest("'\(key)' must be a list of ids")
        }
        var out: [String] = []
        for item in items {
            guard let text = item.stringValue else { throw ServerError.badRequest("'\(key)' must be a list of ids") }
            out.append(try AdminInput.id(text, "a facility"))
        }
        return out
    }

    static func role(_ body: JSONValue) throws(ServerError) -> UserRole? {
        guard let text = try text(body, "role", optional: true) else { return nil }
        guard let role = UserRole(rawValue: text) else {
            throw ServerError.badRequest("'role' must be inspector, supervisor, admin, crew or client")
        }
        return role
    }

    static func limit(_ text: String?) throws(ServerError) -> Int {
        guard let text else { return 100 }
        guard let value = Int(text), (1...1000).contains(value) else {
            throw ServerError.badRequest("'limit' must be 1 to 1000")
        }
        return value
    }

    /// An import's body: `{"csv": "..."}` (a spreadsheet's text) or the JSON document itself.
    static func importBody(_ input: RouteInput) throws(ServerError) -> Data {
        let body = try input.decode(JSONValue.self)
        if let csv = body["csv"] {
            guard let text = csv.stringValue else { throw ServerError.badRequest("'csv' must be the file's text") }
            return Data(text.utf8)
        }
        guard case .data(let data) = input.request.body else {
            throw ServerError.badRequest("the request needs a JSON body")
        }
        return data
    }
}
