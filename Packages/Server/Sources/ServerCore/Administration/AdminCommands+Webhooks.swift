import ArgumentParsing
import FieldTypes
import Foundation
import Models
import ServerStore

/// `jqc-server admin webhook ...`: the receivers of events and their deliveries.
extension AdminCommands {
    /// The webhook commands' arguments and options.
    enum Hooks {
        static let url = Argument("URL", help: "the receiver: http://HOST/PATH or https://HOST/PATH")
        static let events = Option(
            "events", "LIST", help: "comma list of report.accepted, report.reviewed, issue.flagged (default: all)")
        static let secretFile = Option(
            "secret-file", "FILE", help: "a file holding the signing secret, at least 16 bytes (required)")
        static let allowPrivate = Flag(
            "allow-private-targets",
            help: "allow a loopback, link-local or private address (a receiver on the server's own network)")
        static let webhook = Argument("ID", help: "the webhook (wh_...)")
        static let failed = Flag(
            "failed", help: "only deliveries given up on (replay them with 'admin webhook replay')")
        static let onlyWebhook = Option("webhook", "ID", help: "only this webhook's")
        static let limit = Option("limit", "N", help: "the newest N (default 100)")
        static let delivery = Argument(
            "DELIVERY_ID", help: "the delivery's number, from 'admin webhook deliveries'")
    }

    static let webhooks: [AdminCommand] = [
        AdminCommand(
            "webhook add", summary: "post events to a receiver's URL, signed with a secret",
            positionals: [Hooks.url.spec],
            options: [Hooks.events.spec, Hooks.secretFile.spec, Hooks.allowPrivate.spec],
            discussion:
                "Each event is posted as JSON with X-JQC-Signature: t=TIME,v1=HMAC-SHA256(secret, TIME.BODY). A 2xx answer within 10 s delivers it; anything else is retried with growing waits, then kept as failed. A 410 answer disables the hook."
        ) { parsed, admin throws(ServerError) in
            guard let path = try parsed[Hooks.secretFile] else {
                throw ServerError.badRequest(
                    "'admin webhook add' needs --secret-file FILE, the secret receivers check signatures with")
            }
            guard let secret = WebhookSignature.secret(fromFile: try read(path)) else {
                throw ServerError.badRequest("the secret file '\(path)' is not text")
            }
            let hook = try admin.addWebhook(
                url: try parsed[Hooks.url],
                events: try parsed[Hooks.events].map { $0.split(separator: ",").map(String.init) },
                secret: secret, allowingPrivate: parsed[Hooks.allowPrivate], by: actor)
            return AdminOutput(
                lines: [
                    "webhook \(hook.id) posts \(hook.events.map(\.rawValue).joined(separator: ", ")) to \(show(hook.url))"
                ],
                json: ["webhook": AdminWire.webhook(hook)])
        },
        AdminCommand("webhook list", summary: "list the webhooks, disabled ones marked with why") {
            _, admin throws(ServerError) in
            let list = try admin.webhooks()
            return AdminOutput(
                lines: table(
                    ["ID", "URL", "EVENTS", "STATE"],
                    list.map {
                        [
                            $0.id, $0.url, $0.events.map(\.rawValue).joined(separator: ","),
                            $0.disabledReason.map { "disabled: \($0)" } ?? "enabled",
                        ]
                    }, empty: "No webhooks: add one with 'admin webhook add URL --secret-file FILE'."),
                json: ["webhooks": .array(list.map(AdminWire.webhook))])
        },
        AdminCommand(
            "webhook remove", summary: "remove a webhook and its deliveries",
            positionals: [Hooks.webhook.spec]
        ) { parsed, admin throws(ServerError) in
            let hook = try admin.removeWebhook(id: try parsed[Hooks.webhook], by: actor)
            return AdminOutput(
                lines: ["webhook \(hook.id) (\(show(hook.url))) is removed"], json: ["webhook": AdminWire.webhook(hook)]
            )
        },
        AdminCommand(
            "webhook enable",
            summary: "enable a webhook its receiver disabled (410); its pending events go out in order",
            positionals: [Hooks.webhook.spec]
        ) { parsed, admin throws(ServerError) in
            let hook = try admin.enableWebhook(id: try parsed[Hooks.webhook], by: actor)
            return AdminOutput(lines: ["webhook \(hook.id) is enabled"], json: ["webhook": AdminWire.webhook(hook)])
        },
        AdminCommand(
            "webhook deliveries", summary: "the newest deliveries: state, attempts, the last answer",
            options: [Hooks.failed.spec, Hooks.onlyWebhook.spec, Hooks.limit.spec]
        ) { parsed, admin throws(ServerError) in
            let list = try admin.webhookDeliveries(
                webhookID: try parsed[Hooks.onlyWebhook], failedOnly: parsed[Hooks.failed],
                limit: try AdminRoutes.limit(try parsed[Hooks.limit]))
            return AdminOutput(
                lines: table(
                    ["ID", "WEBHOOK", "EVENT", "REPORT", "STATE", "ATTEMPTS", "LAST"],
                    list.map {
                        [
                            String($0.id), $0.webhookID, $0.eventType, $0.reportServerID, $0.state.rawValue,
                            String($0.attempts),
                            $0.lastError ?? $0.lastStatus.map { "answered \($0)" } ?? "-",
                        ]
                    }, empty: parsed[Hooks.failed] ? "No failed deliveries." : "No deliveries yet."),
                json: ["deliveries": .array(list.map(AdminWire.delivery))])
        },
        AdminCommand(
            "webhook replay", summary: "send a delivery again (the same event, id and body), now",
            positionals: [Hooks.delivery.spec]
        ) { parsed, admin throws(ServerError) in
            let delivery = try admin.replayWebhookDelivery(try parsed[Hooks.delivery], by: actor)
            return AdminOutput(
                lines: [
                    "delivery \(delivery.id) (\(delivery.eventType) of report \(show(delivery.reportServerID))) will be sent again"
                ],
                json: ["delivery": AdminWire.delivery(delivery)])
        },
    ]
}
