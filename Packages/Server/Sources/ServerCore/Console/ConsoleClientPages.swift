import FieldTypes
import FormLogic
import Foundation
import Models
import Scoring
import ServerStore

/// The console of a client (contract 1.2): their buildings, a building's
/// scores, the reports a supervisor approved drawn client-safe, their
/// requests and the actions at their buildings. Every page asks
/// `ClientScope` what the client may see; anything else is 404.
extension ConsoleRoutes {
    /// The reports a building's page lists and charts.
    static let clientReportLimit = 30

    /// The client's scope, read in `session`.
    func clientScope(_ input: ConsoleInput, in session: any StorageSession) throws(ServerError) -> ClientScope {
        let caller = try input.requireCaller()
        guard let scope = try ClientScope.of(caller, gate: config.clientsSee, in: session) else {
            throw ClientScope.notFound("page")
        }
        return scope
    }

    /// `GET /console/buildings`: each of the client's buildings with its
    /// latest score, its average and pass rate over the last 30 days, and
    /// its open requests and actions.
    func consoleBuildings(_ input: ConsoleInput) throws(ServerError) -> ConsolePage {
        let now = Date()
        let month = RollupPeriod(
            from: RFC3339.string(now.addingTimeInterval(-30 * 86_400)), to: RFC3339.string(now.addingTimeInterval(1)),
            name: "the last 30 days")
        let rows = try store.read { session -> [ClientBuildingRow] in
            let scope = try clientScope(input, in: session)
            var query = RollupQuery(by: .site, from: month.from, to: month.to)
            query.reviewStates = scope.reviewStates
            let sums = Dictionary(
                try session.gradeRollup(query).map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
            var open = ActionListQuery()
            open.clientID = try input.requireCaller().user.id
            open.unfinishedOnly = true
            return try session.managedFacilities().filter { scope.sees(facility: $0.facility.id) }.map {
                (site) throws(ServerError) -> ClientBuildingRow in
                var latest = HistoryQuery(facilityID: site.facility.id)
                latest.reviewState = scope.gate == .approved ? .approved : nil
                open.facilityID = site.facility.id
                let last = try session.reportsPage(latest, limit: 5, offset: 0).map(\.0).first(where: scope.sees)
                return ClientBuildingRow(
                    facility: site.facility, latest: last, sums: sums[site.facility.id],
                    open: try session.actionStateCounts(open).values.reduce(0, +))
            }
        }
        return ConsolePage(title: "My buildings", body: ClientPageView.buildings(rows), viewer: input.viewer)
    }

    /// `GET /console/buildings/{id}?month=YYYY-MM` (or `from`, `to`): the
    /// building's trend, the period's averages by area and its inspections.
    func consoleBuilding(_ input: ConsoleInput, facilityID: String) throws(ServerError) -> ConsolePage {
        let shown = try store.read { session -> ClientBuildingPage in
            let scope = try clientScope(input, in: session)
            guard scope.sees(facility: facilityID), let site = try session.managedFacility(id: facilityID) else {
                throw ClientScope.notFound("building")
            }
            let zone = try OrganisationZone.current(in: session)
            let period = try clientPeriod(input, zone: zone)
            let gateState: ReviewState? = scope.gate == .approved ? .approved : nil
            var inPeriod = HistoryQuery(facilityID: facilityID, acceptedFrom: period.from, acceptedTo: period.to)
            inPeriod.reviewState = gateState
            var byArea = RollupQuery(by: .area, from: period.from, to: period.to, facilityID: facilityID)
            byArea.reviewStates = scope.reviewStates
            return ClientBuildingPage(
                facility: site.facility, period: period, zone: zone,
                trend: try session.reportsPage(
                    HistoryQuery(facilityID: facilityID, reviewState: gateState), limit: Self.clientReportLimit,
                    offset: 0
                ).map(\.0).filter(scope.sees),
                areas: try session.gradeRollup(byArea), areaNames: try session.areas(facilityID: facilityID),
                reports: try session.reportsPage(inPeriod, limit: 200, offset: 0).map(\.0).filter(scope.sees),
                templates: try session.templates())
        }
        return ConsolePage(title: shown.facility.name, body: ClientPageView.building(shown), viewer: input.viewer)
    }

    /// The period a building's page asks for: `month`, or `from` and `to`; this month when none.
    private func clientPeriod(_ input: ConsoleInput, zone: TimeZone) throws(ServerError) -> RollupPeriod {
        let (month, from, to) = (input.query("month"), input.query("from"), input.query("to"))
        if month == nil && from == nil && to == nil {
            return try RollupPeriod.named(month: RollupPeriod.thisMonth(zone: zone), zone: zone)
        }
        return try RollupPeriod.named(month: month, from: from, to: to, zone: zone)
    }

    /// `GET /console/reports/{id}` for a client: the report if they may see
    /// it, without its private fields, review or internal ids.
    func consoleClientReport(_ input: ConsoleInput, serverID: String, printable: Bool = false) throws(ServerError)
        -> ConsolePage
    {
        let view = try clientReportView(input, serverID: serverID)
        let judgement = ConsoleJudgement(view: view, registry: judge.registry)
        let title = "\(view.template?.name ?? "Inspection") at \(view.facility?.name ?? "")"
        return ConsolePage(
            title: title, body: ClientReportView(view: view, judgement: judgement, registry: judge.registry).html,
            viewer: input.viewer, printable: printable)
    }

    /// A report as a client may read it, without its review, events, owner or actions; 404 when they may not.
    func clientReportView(_ input: ConsoleInput, serverID: String) throws(ServerError) -> ConsoleReportView {
        try store.read { session -> ConsoleReportView in
            let scope = try clientScope(input, in: session)
            guard let report = try session.report(serverID: serverID), scope.sees(report),
                let revision = try session.revision(serverID: serverID, revision: report.currentRevision)
            else { throw ClientScope.notFound("report") }
            return ConsoleReportView(
                report: report, revision: revision, previous: nil,
                template: try session.template(id: report.templateID),
                photos: try session.photos(serverID: serverID), review: StoredReview.awaiting(report, revision: 1),
                events: [], owner: nil, facility: try session.managedFacility(id: report.facilityID)?.facility,
                area: try report.areaID.flatMap { (id) throws(ServerError) in try session.area(id: id) })
        }
    }

    /// A photo of a report a client may see, of a field that is not private; anything else 404.
    func consoleClientPhoto(_ input: ConsoleInput, serverID: String, photo text: String) throws(ServerError)
        -> ConsoleReply
    {
        guard let localID = UUID(uuidString: text) else { throw ClientScope.notFound("photo") }
        let photo = try store.read { session -> StoredPhoto? in
            let scope = try clientScope(input, in: session)
            guard let report = try session.report(serverID: serverID), scope.sees(report),
                let photo = try session.photo(localID: localID), photo.serverID == serverID,
                let fieldID = photo.fieldID,
                let field = try session.template(id: report.templateID)?.schema.field(FieldID(fieldID)),
                !field.isPrivate
            else { return nil }
            return photo
        }
        guard let photo, let descriptor = try photos.open(sha256: photo.sha256, byteSize: photo.byteSize) else {
            throw ClientScope.notFound("photo")
        }
        return .photo(descriptor: descriptor, byteSize: photo.byteSize)
    }

    /// `GET /console/requests/new`: the form of a request for service.
    func consoleRequestForm(_ input: ConsoleInput, status: Int = 200, error: String? = nil) throws(ServerError)
        -> ConsolePage
    {
        let places = try store.read { session -> [(Facility, [Area])] in
            let scope = try clientScope(input, in: session)
            return try session.managedFacilities().filter { scope.sees(facility: $0.facility.id) }.map {
                (site) throws(ServerError) in (site.facility, try session.areas(facilityID: site.facility.id))
            }
        }
        guard let viewer = input.viewer else { throw ServerError.authRequired("sign in first") }
        return ConsolePage(
            status: status, title: "Request service",
            body: ConsoleLayout.error(error) + ClientPageView.requestForm(places, csrf: viewer.csrf, form: input.form),
            viewer: viewer)
    }

    /// `POST /console/requests/new`: the request becomes an action (source
    /// `client`) the supervisors see; then its page. Refused: the form again with why.
    func consoleRequestService(_ input: ConsoleInput) throws(ServerError) -> ConsoleReply {
        let caller = try input.requireCaller()
        try input.requireCSRF()
        let form = input.form
        var members: [String: JSONValue] = [
            "id": .string(form.text("request_id") ?? UUID().uuidString.lowercased()),
            "facility_id": .string(form.text("facility") ?? ""), "title": .string(form.raw("title") ?? ""),
        ]
        if let area = form.text("area"), !area.isEmpty { members["area_id"] = .string(area) }
        if let text = form.raw("description"), !text.isEmpty { members["description"] = .string(text) }
        do throws(ServerError) {
            let photo = try requestPhoto(input, caller: caller)
            let (document, _) = try ActionRoutes(context: context).makeAction(
                RequestMembers(.object(members)), by: caller)
            let id = document["id"]?.stringValue ?? ""
            if let photo, let requestID = members["id"]?.stringValue {
                try keepRequestPhoto(photo, actionID: id, requestID: requestID, caller: caller)
            }
            return .redirect(Self.consolePath + "/actions/" + HTML.percent(id) + "?notice=requested")
        } catch {
            guard [400, 404, 413, 415, 429].contains(error.status) else { throw error }
            return .page(try consoleRequestForm(input, status: error.status, error: error.message))
        }
    }
}

/// One of a client's buildings on "My buildings".
struct ClientBuildingRow: Sendable {
    var facility: Facility
    var latest: StoredReport?
    var sums: RollupSums?
    var open: Int
}

/// What a client's building page shows, read in one snapshot.
struct ClientBuildingPage: Sendable {
    var facility: Facility
    var period: RollupPeriod
    var zone: TimeZone
    var trend: [StoredReport]
    var areas: [RollupSums]
    var areaNames: [Area]
    var reports: [StoredReport]
    var templates: [Template]
}
