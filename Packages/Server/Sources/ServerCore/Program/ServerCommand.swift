import ArgumentParsing
import FieldTypes
import FormLogic
import Foundation
import Models
import ProgramOutput
import ServerHTTP
import ServerStore

/// The command line of `jqc-server`: serving, and the admin commands.
public enum ServerCommand {
    /// Help instead of running the command.
    static let help = Flag("help", short: "h", help: "show this help")
    /// The version line instead of serving.
    static let version = Flag("version", help: "print the server's version and the libraries it runs with")
    static let globalOptions: [OptionSpec] = [help.spec, version.spec]

    /// `help --man`: the man page instead of the overview (`help` is not parsed; the word is looked for).
    static let man = Flag("man", help: "print the program's man page (roff) instead")

    /// The admin commands' database, and their `--json`.
    static let db = Option("db", "FILE", help: "the server's database")
    static let json = Flag("json", help: "print one JSON document instead of text")

    /// `admin edit-report`'s report, answers and field types.
    static let serverID = Argument("SERVER_ID", help: "the report's server id")
    static let answers = Option(
        repeating: "answer", "FIELD_ID=JSON", help: "set one answer to a JSON value; repeatable")
    static let fieldTypesDir = Option(
        repeating: "field-types-dir", "DIR",
        help: "look for external field types (jqc-field-NAME) here too, as the server does; repeatable")
    /// `admin import-templates`'s file.
    static let templatesFile = Argument(
        "FILE",
        help: "a JSON file of one template or {\"templates\": [...]}, optionally in an {\"ok\", \"data\"} envelope"
    )

    /// Every command, for the man page.
    static var catalog: CommandCatalog {
        CommandCatalog(
            commands: [
                serve, ExportCommand.spec, RollupCommand.spec, CoverageCommand.spec, DocumentCommand.reportSpec,
                DocumentCommand.siteSpec,
            ]
                + adminCommands,
            globalOptions: globalOptions)
    }

    /// `--version`.
    static var versionLine: String {
        "jqc-server \(ProductVersion.current) (libmicrohttpd \(HTTPServer.libraryVersion))"
    }

    static let serve = CommandSpec(
        "serve", summary: "serve the wire contract (docs/contract.md) over HTTP (the default command)",
        options: ServerConfig.options,
        discussion: "Port 0 picks a free port; the first line printed is 'listening on http://HOST:PORT'.")

    static let editReport = CommandSpec(
        "admin edit-report", summary: "make a new server revision of a report (how conflicts arise in tests)",
        positionals: [serverID.spec], options: [db.spec, answers.spec, fieldTypesDir.spec],
        discussion: "The new answers are judged and scored as the server judges a report, with the same field types.\n"
            + "Example: jqc-server admin --db server.db edit-report R1 --answer 2=3 --answer 15='\"Ana\"'")

    static let importTemplates = CommandSpec(
        "admin import-templates", summary: "add or replace templates from a file shaped like GET /templates",
        positionals: [templatesFile.spec], options: [db.spec])

    /// Runs one invocation and returns the exit code; output that could not
    /// be written is reported as the program exits (`ProgramExit`).
    /// `storage` opens what `--db` names; the composition root passes the stores this build has.
    public static func run(arguments: [String], storage: StorageOpener) -> Int32 {
        ProgramExit.ignoreBrokenPipes()
        return ProgramExit.code(dispatch(arguments: arguments, storage: storage).rawValue, program: "jqc-server")
    }

    /// Runs one invocation and ends the process with its exit code (`ProgramExit.end`: a stopped
    /// server may leave a thread inside a C library whose exit handlers must then not run).
    public static func main(arguments: [String], storage: StorageOpener) -> Never {
        ProgramExit.end(run(arguments: arguments, storage: storage))
    }

    private static func dispatch(arguments: [String], storage: StorageOpener) -> ExitCode {
        let parser = ArgumentParser(globalOptions: globalOptions)
        do {
            if arguments.first == "admin" {
                return try admin(Array(arguments.dropFirst()), parser: parser, storage: storage)
            }
            if arguments.first == "export" {
                return try ExportCommand.run(Array(arguments.dropFirst()), parser: parser, storage: storage)
            }
            if arguments.first == "document" {
                return try DocumentCommand.run(Array(arguments.dropFirst()), parser: parser, storage: storage)
            }
            if arguments.first == "report", arguments.dropFirst().first == "coverage" {
                return try CoverageCommand.run(Array(arguments.dropFirst(2)), parser: parser, storage: storage)
            }
            if arguments.first == "report" {
                return try RollupCommand.run(Array(arguments.dropFirst()), parser: parser, storage: storage)
            }
            if arguments.first == "help" {
                if man.isWritten(in: arguments) {
                    OutputChannel.standardOutput.write(
                        ManPage.roff(
                            program: "jqc-server",
                            summary: "the JanitorialQC server: the wire contract over HTTP, on SQLite or PostgreSQL",
                            version: ProductVersion.current, date: ProductVersion.date, catalog: catalog,
                            sections: [
                                (
                                    "Exit status",
                                    [
                                        [
                                            "0 stopped cleanly",
                                            "1 could not start or serve (one line on stderr says why)",
                                            "2 usage error", "3 (admin, export) not found",
                                            "4 (admin, export) invalid input", "7 (admin) conflict",
                                            "141 the reader closed the output before all of it was written (a closed pipe, as in '| head')",
                                        ]
                                        .joined(separator: "\n")
                                    ]
                                )
                            ]))
                    return .ok
                }
                OutputChannel.standardOutput.line(
                    HelpFormatter.overview(
                        program: "jqc-server", summary: "the JanitorialQC server",
                        commands: catalog.commands, globalOptions: globalOptions))
                return .ok
            }
            let words = arguments.first == "serve" ? Array(arguments.dropFirst()) : arguments
            try refuseMisplacedAdmin(words)
            let parsed = try parser.parse(words, for: serve)
            if parsed[version] {
                OutputChannel.standardOutput.line(versionLine)
                return .ok
            }
            if parsed[help] {
                OutputChannel.standardOutput.line(
                    HelpFormatter.help(serve, program: "jqc-server", globalOptions: globalOptions))
                OutputChannel.standardOutput.line(
                    "\nAdministration: 'jqc-server admin --help' lists the commands; docs/administer.md walks through a first day."
                )
                return .ok
            }
            return ServerRunner.serve(try ServerConfig.from(parsed), storage: storage)
        } catch {
            OutputChannel.standardError.write("jqc-server: \(error.message)\n")
            return .usage
        }
    }

    /// Refuses `admin` written after other words (`jqc-server --db X admin users`) with the
    /// command line to type instead, `admin` first; returns when `admin` is not among the command words.
    static func refuseMisplacedAdmin(_ words: [String]) throws(UsageError) {
        let catalog = CommandCatalog(commands: [serve], globalOptions: globalOptions + ServerConfig.options)
        let positions = catalog.commandWordPositions(words)
        guard let at = positions.first(where: { words[$0] == adminWord }) else { return }
        var rest = words
        rest.remove(at: at)
        // The words come from the command line: through the one sanitiser to the terminal.
        let line = ([adminWord] + rest).map { OneLine.escaped($0) }.joined(separator: " ")
        throw UsageError("put '\(adminWord)' first: jqc-server \(line)")
    }

    /// The admin commands that are not part of the organisation's administration.
    static let legacyAdmin: [CommandSpec] = [editReport, importTemplates]

    /// Every `admin` command, in the order `admin --help` lists them: noun first, as the man page lists them.
    static var adminCommands: [CommandSpec] { AdminCommands.all.map(\.spec) + legacyAdmin }

    /// Every `admin` command its words may name: those help lists, and the
    /// older names (`add-user`), which work as they always have but help hides.
    static var namedAdminCommands: [CommandSpec] { adminCommands + AdminCommands.aliases.map(\.spec) }

    /// The word before every admin command's own words.
    static let adminWord = "admin"

    /// The admin commands as `admin`'s words find them, older names included: each named by its
    /// words after `admin` (`edit-report`, `webhook add`), the database
    /// (`--db FILE`) a valued option that may stand before them, as `--home`
    /// stands before jqc's.
    static var adminCatalog: CommandCatalog {
        CommandCatalog(
            commands: namedAdminCommands.map { spec in
                var named = spec
                named.name = String(spec.name.dropFirst(adminWord.count + 1))
                return named
            },
            globalOptions: globalOptions + [db.spec])
    }

    /// `admin` with no command: its commands, on stdout.
    private static func adminOverview() {
        OutputChannel.standardOutput.line("Usage: jqc-server admin --db FILE|URL COMMAND ...\n\nCommands:")
        for spec in adminCommands {
            OutputChannel.standardOutput.line(
                "  \(spec.name.dropFirst(adminWord.count + 1).padding(toLength: 20, withPad: " ", startingAt: 0)) \(spec.summary)"
            )
        }
        OutputChannel.standardOutput.line(
            "\n'jqc-server admin COMMAND --help' says more; docs/administer.md walks through a first day.")
    }

    /// The usage error for admin words that name no command, with the names help lists that begin alike:
    /// the commands of a group for a group's unknown word, else the first words (`facility`, `facilities`).
    private static func unknownAdminCommand(_ name: String, catalog: CommandCatalog) -> UsageError {
        let shown = adminCommands.map { String($0.name.dropFirst(adminWord.count + 1)) }
        let alike = shown.filter { $0.hasPrefix(String(name.prefix(3))) }
        let firstWords = alike.map { String($0.split(separator: " ")[0]) }
        let near =
            name.contains(" ")
            ? alike
            : firstWords.enumerated().filter { !firstWords[..<$0.offset].contains($0.element) }
                .map(\.element)
        return UsageError(
            "'admin' has no command '\(name)'\(near.isEmpty ? "." : "; did you mean \(near.joined(separator: " or "))?") "
                + "See 'jqc-server admin --help'.")
    }

    /// `jqc-server admin ...`: finds the command its words name, reads its arguments, and runs it.
    private static func admin(_ arguments: [String], parser: ArgumentParser, storage: StorageOpener) throws(UsageError)
        -> ExitCode
    {
        let catalog = adminCatalog
        guard let (name, rest) = try adminCommandWords(arguments, catalog: catalog) else {
            adminOverview()
            return help.isWritten(in: arguments) ? .ok : .usage
        }
        guard let spec = namedAdminCommands.first(where: { $0.name == "\(adminWord) \(name)" }) else {
            throw unknownAdminCommand(name, catalog: catalog)
        }
        let parsed = try parser.parse(rest, for: spec)
        if parsed[help] {
            OutputChannel.standardOutput.line(
                HelpFormatter.help(spec, program: "jqc-server", globalOptions: globalOptions))
            return .ok
        }
        let invocation = try adminInvocation(name, spec: spec, parsed)
        do throws(ServerError) {
            return try runAdmin(invocation, storage: storage)
        } catch {
            return adminFailure(error, json: invocation.json)
        }
    }

    /// The admin command `arguments` name, and the words after it; nil when they name none (`admin` alone).
    private static func adminCommandWords(_ arguments: [String], catalog: CommandCatalog) throws(UsageError)
        -> (name: String, rest: [String])?
    {
        switch catalog.lookup(arguments) {
        case .command(let found, let words):
            return (found, words)
        case .none:
            return nil
        case .group(let word):
            throw UsageError(
                "'admin \(word)' needs one of its commands: \(catalog.subcommands(of: word).joined(separator: ", ")). "
                    + "See 'jqc-server admin --help'.")
        case .unknownCommand(let word, _):
            throw unknownAdminCommand(word, catalog: catalog)
        case .unknownSubcommand(let group, _, _) where catalog.spec(group) != nil:
            // A command that is also a group (`areas`, `areas import`): its own words follow it
            // (`areas --facility F-100`), and the parser judges them as it did before the group was.
            guard let first = catalog.commandWordPositions(arguments).first else { return nil }
            var rest = arguments
            rest.remove(at: first)
            return (group, rest)
        case .unknownSubcommand(let group, let word, _):
            throw unknownAdminCommand("\(group) \(word)", catalog: catalog)
        }
    }

    /// Reads what every admin command takes (the database, `--json`, field types) and `edit-report`'s answers.
    private static func adminInvocation(_ name: String, spec: CommandSpec, _ parsed: ParsedArguments)
        throws(UsageError) -> AdminInvocation
    {
        let command = (AdminCommands.all + AdminCommands.aliases).first { $0.spec.name == spec.name }
        guard let db = try parsed[Self.db] else {
            throw UsageError("'\(spec.name)' needs --db FILE or --db postgres://....")
        }
        let edits = name == "edit-report" ? try AdminTool.answers(try parsed[answers]) : []
        let json = parsed[Self.json]
        let directories = try parsed[fieldTypesDir]
        return AdminInvocation(
            name: name, command: command, arguments: AdminArguments(parsed), db: db, edits: edits,
            directories: directories, json: json)
    }

    /// Opens the database an admin command names and runs the command on it, printing what it answers.
    private static func runAdmin(_ invocation: AdminInvocation, storage: StorageOpener) throws(ServerError) -> ExitCode
    {
        let (name, arguments, db) = (invocation.name, invocation.arguments, invocation.db)
        // The admin commands may create the database: private from the start, as the server keeps it.
        umask(0o077)
        if name == "restore" { try AdminCommands.placeBackup(try arguments[AdminCommands.backupFile], at: db) }
        if name == "backup" || name == "new-generation", !DatabaseLocation.isPostgres(db),
            !FileManager.default.fileExists(atPath: db)
        {
            throw ServerError.notFound("no database '\(db)'; give --db the server's database file")
        }
        let opened = try storage.open(db, StorageOpener.Settings(connections: 1, uploadDirectory: nil))
        defer { opened.removeTemporaryUploads() }
        let store = opened.store
        let judge = AnswerJudge(registry: ServerFieldTypes.registry(directories: invocation.directories))
        if let command = invocation.command {
            let output = try command.run(arguments, Administration(store: store, judge: judge))
            if invocation.json {
                OutputChannel.standardOutput.line(String(decoding: JSONBody.encode(output.json), as: UTF8.self))
            } else {
                for line in output.lines { OutputChannel.standardOutput.line(line) }
            }
            return .ok
        }
        switch name {
        case "edit-report":
            return try AdminTool.editReport(
                store: store, serverID: try arguments[serverID], answers: invocation.edits, judge: judge)
        default:
            return try AdminTool.importTemplates(store: store, path: try arguments[templatesFile])
        }
    }

    /// Reports an admin command's failure (on stderr, and as a JSON error with `--json`); the exit code it means.
    private static func adminFailure(_ error: ServerError, json: Bool) -> ExitCode {
        // Messages quote what a file or the database held: through the one sanitiser to the terminal.
        OutputChannel.standardError.write("jqc-server: \(OneLine.escaped(error.message))\n")
        if json {
            OutputChannel.standardOutput.line(
                String(
                    decoding: JSONBody.encode(
                        ["error": ["code": .string(error.code.rawValue), "message": .string(error.message)]]
                            as JSONValue), as: UTF8.self))
        }
        switch error.status {
        case 404: return .notFound
        case 409: return .conflict
        case 400, 413, 422: return .validation
        default: return .failure
        }
    }
}

/// An admin command as its words were read, ready to run.
private struct AdminInvocation {
    /// The command's words after `admin`.
    var name: String
    /// The organisation's administration command; nil for `edit-report` and `import-templates`.
    var command: AdminCommand?
    var arguments: AdminArguments
    /// What `--db` names: a SQLite file or a PostgreSQL URL.
    var db: String
    /// `edit-report`'s answers (none for the other commands).
    var edits: [(String, JSONValue)]
    /// `--field-types-dir`, where external field types are looked for too.
    var directories: [String]
    /// `--json`: one JSON document instead of text.
    var json: Bool
}

/// The admin commands, run against the database directly (the server may be running).
enum AdminTool {
    /// Reads `FIELD_ID=JSON` pairs.
    static func answers(_ pairs: [String]) throws(UsageError) -> [(String, JSONValue)] {
        guard !pairs.isEmpty else { throw UsageError("'admin edit-report' needs at least one --answer FIELD_ID=JSON.") }
        var out: [(String, JSONValue)] = []
        for pair in pairs {
            guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else {
                throw UsageError("--answer '\(pair)' must be FIELD_ID=JSON, for example 2=4 or 15='\"Ana\"'.")
            }
            let text = String(pair[pair.index(after: eq)...])
            guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
                throw UsageError("--answer '\(pair)': '\(text)' is not JSON; quote strings, for example 15='\"Ana\"'.")
            }
            out.append((String(pair[..<eq]), value))
        }
        return out
    }

    /// Appends a revision with `answers` changed, judged and scored by `judge` (the server's field types).
    static func editReport(
        store: any ServerStorage, serverID: String, answers: [(String, JSONValue)],
        judge: AnswerJudge
    ) throws(ServerError) -> ExitCode {
        let revision = try store.write { session -> Int in
            guard let report = try session.report(serverID: serverID) else {
                throw ServerError.notFound("no report '\(serverID)'")
            }
            guard let current = try session.revision(serverID: serverID, revision: report.currentRevision),
                let payload = try? JSONDecoder().decode(WirePayload.self, from: Data(current.payloadJSON.utf8))
            else {
                throw ServerError.internal("report '\(serverID)' has no readable current revision")
            }
            var next = payload
            var grade = ReportGrade.none
            var members = payload.answers.objectValue ?? [:]
            for (field, value) in answers { members[field] = value }
            guard let template = try session.template(id: report.templateID) else {
                throw ServerError.unprocessable(
                    code: .reportInvalid, "the report's template '\(report.templateID)' is gone")
            }
            next.answers = judge.keepingSignatures(
                .object(members), previous: payload.answers, revision: report.currentRevision,
                schema: template.schema)
            if let answers = Answers(json: next.answers) {
                let problems = judge.problems(schema: template.schema, answers: answers)
                if !problems.isEmpty {
                    throw ServerError.unprocessable(code: .reportInvalid, problems.joined(separator: "; "))
                }
                grade = judge.grade(template, answers: answers)
                next.score = grade.score
            }
            let revision = try session.appendRevision(
                serverID: serverID, baseRevision: report.currentRevision, payload: next,
                issuesJSON: nil, grade: grade, source: "admin", authorID: nil,
                limit: ServerConfig(database: "").maxRevisions, now: Date())
            let actor = AdminActor.commandLine
            try session.reopenReviews(
                [
                    AcceptedRevision(
                        serverID: serverID, localID: report.localID, ownerID: report.ownerID,
                        revision: revision, kind: "edited",
                        actor: WirePerson(id: actor.id, displayName: actor.name))
                ],
                at: RFC3339.string(Date()))
            return revision
        }
        OutputChannel.standardOutput.line("report \(serverID) is now at revision \(revision)")
        return .ok
    }

    static func importTemplates(store: any ServerStorage, path: String) throws(ServerError) -> ExitCode {
        guard let data = FileManager.default.contents(atPath: path),
            let json = try? JSONDecoder().decode(JSONValue.self, from: data)
        else {
            throw ServerError.badRequest("'\(path)' cannot be read as JSON")
        }
        guard let list = TemplateLint.listed(json)["templates"]?.arrayValue else {
            throw ServerError.badRequest(
                "'\(path)' holds neither a template nor a \"templates\" list; expected one template object "
                    + "or {\"templates\": [...]} as GET /templates returns")
        }
        var templates: [Template] = []
        var problems: [String] = []
        for item in list {
            switch Template.decode(item) {
            case .success(let template): templates.append(template)
            case .failure(let errors): problems.append(errors.description)
            }
        }
        guard problems.isEmpty else { throw ServerError.badRequest(problems.joined(separator: "; ")) }
        try store.write { session in
            let start = try session.templates().count
            for (offset, template) in templates.enumerated() {
                try session.insertTemplate(template, position: start + offset)
            }
        }
        OutputChannel.standardOutput.line("imported \(templates.count) template\(templates.count == 1 ? "" : "s")")
        return .ok
    }

}
