import ArgumentParsing
import FieldTypes
import ProgramOutput
import ServerStore

/// How the reading commands (`export`, `report`, `document`) end on a
/// server error: one line on stderr, through the one sanitiser (a message
/// may quote what the database held), and the exit code it means.
enum CommandFailure {
    static func told(_ error: ServerError) -> ExitCode {
        OutputChannel.standardError.write("jqc-server: \(OneLine.escaped(error.message))\n")
        switch error.status {
        case 404: return .notFound
        case 400: return .validation
        default: return .failure
        }
    }
}
