import Foundation
import Models
import ServerStore

/// "My e-mail": a person's address and what reaches them, changed by themselves.
extension ConsoleRoutes {
    /// `GET /console/mail`: the form, with what is stored.
    func consoleMailPage(_ input: ConsoleInput, status: Int = 200, error: String? = nil, notice: String? = nil)
        throws(ServerError) -> ConsolePage
    {
        let caller = try input.requireCaller()
        guard let viewer = input.viewer else { throw ServerError.authRequired("sign in first") }
        let setup = try administration.mailSetup(caller.user.id, byID: true)
        return ConsolePage(
            status: status, title: "My e-mail",
            body: ConsoleLayout.notice(notice) + ConsoleLayout.error(error)
                + Self.mailForm(setup, on: config.mail.isOn, csrf: viewer.csrf),
            viewer: viewer)
    }

    /// `POST /console/mail`: stores the address and choices; refused, the form again with why.
    func consoleMailChange(_ input: ConsoleInput) throws(ServerError) -> ConsoleReply {
        let caller = try input.requireCaller()
        try input.requireCSRF()
        let form = input.form
        var change = Administration.MailChange()
        change.email = form.text("email") ?? ""
        change.alerts = Set(
            MailAlert.allowed(for: caller.user.role).filter { form.text("alert_" + $0.rawValue) != nil })
        change.digest = form.text("digest").flatMap(DigestFrequency.init(rawValue:))
        do throws(ServerError) {
            _ = try administration.changeMail(
                caller.user.id, change, byID: true, asAdmin: false,
                by: AdminActor(id: caller.user.id, name: caller.user.displayName))
            return .redirect(Self.consolePath + ConsoleEndpoint.mail.pattern + "?notice=saved")
        } catch {
            guard [400, 403].contains(error.status) else { throw error }
            return .page(try consoleMailPage(input, status: error.status, error: error.message))
        }
    }

    /// The form: the address, each alert the person's role may have, the digest.
    static func mailForm(_ setup: Administration.MailSetup, on: Bool, csrf: String) -> String {
        var html =
            on ? "" : "<p class=\"muted\">This server sends no e-mail yet; your choices are kept for when it does.</p>"
        html +=
            "<form class=\"card\" id=\"mail-form\" method=\"post\" action=\"\(consolePath)\(ConsoleEndpoint.mail.pattern)\">"
            + ConsoleLayout.csrfField(csrf)
            + "<label>E-mail address <input type=\"email\" name=\"email\" maxlength=\"254\" value=\"\(HTML.attribute(setup.email ?? ""))\"></label>"
        let allowed = MailAlert.allowed(for: setup.user.role).sorted()
        if !allowed.isEmpty {
            html += "<fieldset><legend>Tell me right away</legend>"
            for alert in allowed {
                let checked = setup.preferences.alerts.contains(alert) ? " checked" : ""
                html +=
                    "<label><input type=\"checkbox\" name=\"alert_\(alert.rawValue)\" value=\"on\"\(checked)> \(HTML.escape(Self.alertLabel(alert)))</label>"
            }
            html += "</fieldset>"
        }
        html += "<fieldset><legend>A digest of my sites, at 07:00</legend>"
        for choice in DigestFrequency.allCases {
            let checked = setup.preferences.digest == choice ? " checked" : ""
            let locked = setup.preferences.digestLocked && choice == .off ? " disabled" : ""
            html +=
                "<label><input type=\"radio\" name=\"digest\" value=\"\(choice.rawValue)\"\(checked)\(locked)> \(choice == .off ? "none" : choice.rawValue)</label>"
        }
        if setup.preferences.digestLocked {
            html += "<p class=\"muted\">Your organisation keeps your digest on.</p>"
        }
        html += "</fieldset><button type=\"submit\">Save</button></form>\n"
        return html
    }

    /// What an alert is called on the page.
    static func alertLabel(_ alert: MailAlert) -> String {
        switch alert {
        case .reportFailed: "an inspection fails at my sites"
        case .seriousIssue: "a high or critical issue is flagged at my sites"
        case .actionAssigned: "an action is assigned to me"
        case .actionOverdue: "an action of mine, or at my sites, is overdue"
        case .clientRequest: "a client asks for service at my sites"
        case .reportReturned: "a report of mine is returned to me"
        case .visitMissed: "a scheduled inspection at my sites is missed"
        }
    }
}
