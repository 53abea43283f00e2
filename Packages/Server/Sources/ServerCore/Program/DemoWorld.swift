import Foundation
import Models
import ServerStore

/// The demo world of `--demo`: the facilities, areas and templates of
/// `Tools/demo/` (the templates cover every built-in field type, and
/// `washroom-logic` every form-logic key), the two
/// demo accounts, and assignments for the demo inspector due relative to
/// the moment the world is first seeded.
enum DemoWorld {
    static let inspectorID = "U-INSPECTOR"
    static let supervisorID = "U-SUPERVISOR"

    static let facilities = [
        Facility(
            id: "F-100", name: "Harbourview Office Tower", address: "12 Quay Street", projectName: "Downtown Portfolio"),
        Facility(id: "F-200", name: "Riverside Medical Centre", address: "400 River Road", projectName: "Healthcare"),
        Facility(
            id: "F-300", name: "Northgate Distribution Hub", address: "8 Logistics Way", projectName: "Industrial"),
    ]

    static let areas = [
        Area(id: "A-101", facilityID: "F-100", name: "Ground floor washrooms", areaType: "washroom"),
        Area(id: "A-102", facilityID: "F-100", name: "Main lobby", areaType: "lobby"),
        Area(id: "A-103", facilityID: "F-100", name: "Level 3 kitchenette", areaType: "kitchen"),
        Area(id: "A-201", facilityID: "F-200", name: "Outpatient waiting room", areaType: "lobby"),
        Area(id: "A-202", facilityID: "F-200", name: "Staff washrooms", areaType: "washroom"),
        Area(id: "A-301", facilityID: "F-300", name: "Loading dock", areaType: "industrial"),
        Area(id: "A-302", facilityID: "F-300", name: "Break room", areaType: "kitchen"),
    ]

    /// The templates as the contract writes them.
    static let templatesJSON = #"""
        [
          {"id": 101, "name": "Washroom QC", "version": 3, "form_schema": {"fields": [
            {"id": 1, "type": "section", "label": "Cleanliness", "col": 0, "row": 0, "col_span": 12},
            {"id": 2, "type": "rating", "label": "Floors", "required": true, "max": 5, "weight": 2, "col": 0, "row": 1, "col_span": 6},
            {"id": 3, "type": "rating", "label": "Sinks and counters", "required": true, "col": 6, "row": 1, "col_span": 6},
            {"id": 4, "type": "pass_fail", "label": "Soap dispensers filled", "required": true, "critical": true, "col": 0, "row": 2, "col_span": 6},
            {"id": 5, "type": "checkbox", "label": "Bins emptied", "col": 6, "row": 2, "col_span": 6},
            {"id": 6, "type": "radio", "label": "Odour", "required": true, "options": ["Good", "Acceptable", "Poor"], "col": 0, "row": 3, "col_span": 6},
            {"id": 7, "type": "select", "label": "Cleaning crew", "options": ["Day shift", "Night shift", "Contractor"], "col": 6, "row": 3, "col_span": 6},
            {"id": 8, "type": "section", "label": "Supplies", "col": 0, "row": 4, "col_span": 12},
            {"id": 9, "type": "checkbox_group", "label": "Restocked", "options": ["Paper towels", "Toilet paper", "Soap", "Sanitiser"], "col": 0, "row": 5, "col_span": 12},
            {"id": 10, "type": "number", "label": "Paper towel packs left in store room", "col": 0, "row": 6, "col_span": 6},
            {"id": 11, "type": "date", "label": "Last deep clean", "col": 6, "row": 6, "col_span": 6},
            {"id": 12, "type": "table", "label": "Fixtures needing work", "columns": ["Fixture", "Problem", "Action"], "col": 0, "row": 7, "col_span": 12},
            {"id": 13, "type": "label", "label": "Photograph anything that needs maintenance.", "col": 0, "row": 8, "col_span": 12},
            {"id": 14, "type": "image", "label": "Evidence photos", "col": 0, "row": 9, "col_span": 12},
            {"id": 15, "type": "text", "label": "Attendant on duty", "col": 0, "row": 10, "col_span": 6},
            {"id": 16, "type": "email", "label": "Site contact email", "col": 6, "row": 10, "col_span": 6},
            {"id": 17, "type": "textarea", "label": "Notes", "col": 0, "row": 11, "col_span": 12},
            {"id": 18, "type": "signature", "label": "Inspector signature", "required": true, "col": 0, "row": 12, "col_span": 12}
          ]}},
          {"id": "lobby-walk", "name": "Lobby walkthrough", "version": 1, "form_schema": {"fields": [
            {"id": "entrance", "type": "pass_fail", "label": "Entrance mats clean", "required": true},
            {"id": "glass", "type": "rating", "label": "Glass and doors", "required": true, "max": 5},
            {"id": "seating", "type": "radio", "label": "Seating area", "options": ["OK", "Needs attention"]},
            {"id": "hazards", "type": "checkbox", "label": "No trip hazards"},
            {"id": "notes", "type": "textarea", "label": "Notes"}
          ]}},
          {"id": "washroom-logic", "name": "Washroom with shower (conditional)", "version": 1, "form_schema": {"fields": [
            {"id": 1, "type": "pass_fail", "label": "Shower present", "required": true},
            {"id": 2, "type": "section", "label": "Shower", "visible_when": {"field": 1, "op": "eq", "value": "pass"}},
            {"id": 3, "type": "rating", "label": "Shower tiles", "max": 5, "required": true},
            {"id": 4, "type": "textarea", "label": "What is wrong with the tiles?", "required_when": {"field": 3, "op": "le", "value": 2}},
            {"id": 5, "type": "checkbox", "label": "Drain clear"},
            {"id": 6, "type": "section", "label": "Fixtures"},
            {"id": 7, "type": "number", "label": "Fixtures counted", "required": true},
            {"id": 8, "type": "number", "label": "Fixtures broken", "required": true},
            {"id": 9, "type": "number", "label": "Broken share (%)", "calculate": {"round": [{"mul": [100, {"div": [{"field": 8}, {"field": 7}]}]}, 1]}},
            {"id": 10, "type": "pass_fail", "label": "Fixtures acceptable", "calculate": {"if": [{"field": 9, "op": "unanswered"}, null, {"if": [{"field": 9, "op": "le", "value": 10}, "pass", "fail"]}]}},
            {"id": 11, "type": "radio", "label": "Odour", "options": ["Good", "Acceptable", "Poor"], "required": true},
            {"id": 12, "type": "text", "label": "Odour source", "visible_when": {"field": 11, "op": "in", "value": ["Acceptable", "Poor"]}, "required_when": {"field": 11, "op": "eq", "value": "Poor"}},
            {"id": 13, "type": "checkbox_group", "label": "Restocked", "options": ["Paper towels", "Soap", "Toilet paper"]},
            {"id": 14, "type": "number", "label": "Soap refills used", "visible_when": {"field": 13, "op": "contains", "value": "Soap"}}
          ]}}
        ]
        """#

    /// Seeds the world once per database, and (re)sets the two accounts.
    static func seed(_ store: any ServerStorage, config: ServerConfig, now: Date = Date()) throws(ServerError) {
        guard let inspectorHash = PasswordHasher.hash(config.demoInspector.password),
            let supervisorHash = PasswordHasher.hash(config.demoSupervisor.password)
        else {
            throw ServerError.internal("could not hash the demo passwords (out of memory?)")
        }
        let templates = try decodeTemplates()
        try store.write { session in
            try session.upsertUser(
                id: inspectorID, username: config.demoInspector.username, passwordHash: inspectorHash,
                role: .inspector, displayName: "Ivy Inspector")
            try session.upsertUser(
                id: supervisorID, username: config.demoSupervisor.username, passwordHash: supervisorHash,
                role: .supervisor, displayName: "Sam Supervisor")
            guard try session.setting("demo_seeded_at") == nil else { return }
            for (i, facility) in facilities.enumerated() { try session.insertFacility(facility, position: i) }
            for (i, area) in areas.enumerated() { try session.insertArea(area, position: i) }
            for (i, template) in templates.enumerated() { try session.insertTemplate(template, position: i) }
            for assignment in assignments(now: now) {
                try session.insertAssignment(assignment, inspectorID: inspectorID)
            }
            try session.setSetting("demo_seeded_at", RFC3339.string(now))
        }
    }

    /// The demo inspector's assignments: one overdue, one due today, the rest ahead.
    static func assignments(now: Date) -> [Assignment] {
        func due(_ hours: Double) -> String { RFC3339.string(now.addingTimeInterval(hours * 3600)) }
        return [
            Assignment(
                id: "AS-1", templateID: "101", facilityID: "F-100", areaID: "A-101", dueAt: due(-20), status: .open),
            Assignment(
                id: "AS-2", templateID: "lobby-walk", facilityID: "F-100", areaID: "A-102", dueAt: due(4), status: .open
            ),
            Assignment(
                id: "AS-3", templateID: "101", facilityID: "F-200", areaID: "A-202", dueAt: due(28), status: .open),
            Assignment(
                id: "AS-4", templateID: "lobby-walk", facilityID: "F-200", areaID: "A-201", dueAt: due(24 * 6),
                status: .open),
            Assignment(
                id: "AS-5", templateID: "101", facilityID: "F-300", areaID: "A-302", dueAt: due(-24 * 3),
                status: .closed),
        ]
    }

    static func decodeTemplates() throws(ServerError) -> [Template] {
        guard let list = try? JSONDecoder().decode([JSONValue].self, from: Data(templatesJSON.utf8)) else {
            throw ServerError.internal("the demo templates are not valid JSON")
        }
        var templates: [Template] = []
        for item in list {
            switch Template.decode(item) {
            case .success(let template): templates.append(template)
            case .failure(let errors): throw ServerError.internal("a demo template is invalid: \(errors)")
            }
        }
        return templates
    }
}
