import Foundation
import FieldTypes
import Models
import Synchronization

/// What came back from one request to a plugin.
enum PluginAnswer: Sendable {
    /// The plugin's `result` object.
    case result(JSONValue)
    /// The plugin answered with an `error`; its message, as one line.
    case refused(String)
    /// The plugin cannot be used; the line says why (`ExternalFieldType.unavailableReason`).
    case unavailable(String)
}

/// The conversation with one plugin executable for the life of the program.
///
/// The plugin is started on the first request, answers `describe`, and is
/// kept running. Requests go one at a time under a lock (the `FieldType`
/// methods that need them are synchronous and may be called from any
/// thread). Every answer must arrive within the time limit and fit the line
/// limit. A plugin that exits or closes its pipes is started once more at
/// most; any other failure, or a second death, makes it unavailable for good,
/// and `settings.warn` hears about it once.
final class PluginConnection: Sendable {
    /// The type name the file name gives (`jqc-field-NAME`).
    let name: String
    /// The executable's path.
    let path: String
    let settings: ExternalFieldTypeSettings
    private let state = Mutex(State())

    private struct State {
        var process: PluginProcess?
        var description: PluginDescription?
        var failure: ExternalFieldTypesError?
        var starts = 0
        var lastID: Int64 = 0
    }

    init(name: String, path: String, settings: ExternalFieldTypeSettings) {
        self.name = name
        self.path = path
        self.settings = settings
    }

    /// What the plugin said of itself; nil when it is unavailable. Starts it on first use.
    var description: PluginDescription? {
        state.withLock { state in ensureStarted(&state) ? state.description : nil }
    }

    /// Why the plugin cannot be used, nil when it can. Starts it on first use.
    var failure: ExternalFieldTypesError? {
        state.withLock { state in
            _ = ensureStarted(&state)
            return state.failure
        }
    }

    /// The failure as the unavailable type's one line.
    var unavailableReason: String? {
        failure.map { reason($0) }
    }

    /// Sends one request and waits for its answer, within the time limit.
    func request(_ method: String, _ params: [String: JSONValue]) -> PluginAnswer {
        state.withLock { state in
            guard ensureStarted(&state) else { return .unavailable(reason(state.failure)) }
            do throws(ExchangeFailure) {
                return try exchange(&state, method, params)
            } catch .closed where state.starts < 2 {
                // It died between or during requests: one fresh start, then the same request once more.
                state.process?.stop(grace: 0.2)
                state.process = nil
                guard start(&state) else { return .unavailable(reason(state.failure)) }
                do throws(ExchangeFailure) {
                    return try exchange(&state, method, params)
                } catch {
                    fail(&state, error, method: method)
                    return .unavailable(reason(state.failure))
                }
            } catch {
                fail(&state, error, method: method)
                return .unavailable(reason(state.failure))
            }
        }
    }

    /// Marks the plugin unavailable because a `result` it gave for `method` is not the protocol.
    func violated(_ method: String, _ detail: String) -> String {
        state.withLock { state in
            fail(&state, .violation(detail), method: method)
            return reason(state.failure)
        }
    }

    // MARK: - Under the lock

    private enum ExchangeFailure: Error {
        case closed
        case timedOut
        case tooLong
        case system(String)
        case violation(String)
        case wrongName(String)
    }

    /// True when the plugin is running and described; starts it when it has not been yet.
    private func ensureStarted(_ state: inout State) -> Bool {
        if state.failure != nil { return false }
        if state.process != nil, state.description != nil { return true }
        return start(&state)
    }

    /// Starts the plugin and reads its `describe`; on failure records it and returns false.
    private func start(_ state: inout State) -> Bool {
        state.starts += 1
        var info = stat()
        guard stat(path, &info) == 0 else {
            record(&state, ExternalFieldTypesError(.missing, "\(path) does not exist"))
            return false
        }
        guard info.st_mode & S_IFMT != S_IFDIR else {
            record(&state, ExternalFieldTypesError(.notExecutable, "\(path) is a directory, not an executable"))
            return false
        }
        guard access(path, X_OK) == 0 else {
            record(
                &state, ExternalFieldTypesError(.notExecutable, "\(path) is not executable; make it so with chmod +x"))
            return false
        }
        if let problem = PluginTrust.problem(path) {
            record(&state, ExternalFieldTypesError(.unsafe, "\(path) is not run: \(problem)"))
            return false
        }
        do throws(PluginIOFailure) {
            state.process = try PluginProcess.start(path)
        } catch {
            let detail: String
            if case .system(let text) = error { detail = text } else { detail = "unknown error" }
            record(&state, ExternalFieldTypesError(.startFailed, "\(path) could not be started: \(detail)"))
            return false
        }
        do throws(ExchangeFailure) {
            guard
                case .result(let result) = try exchange(
                    &state, "describe", ["protocol": .integer(PluginDescription.protocolVersion)])
            else {
                throw ExchangeFailure.violation("it answered 'describe' with an error")
            }
            let description: PluginDescription
            do throws(PluginProtocolViolation) { description = try PluginDescription(result) } catch {
                throw ExchangeFailure.violation(error.detail)
            }
            guard description.name == name else {
                throw ExchangeFailure.wrongName(description.name)
            }
            state.description = description
            return true
        } catch .closed where state.starts < 2 {
            state.process?.stop(grace: 0.2)
            state.process = nil
            return start(&state)
        } catch {
            fail(&state, error, method: "describe")
            return false
        }
    }

    /// One request and its answer; `.refused` carries the plugin's own error message.
    private func exchange(_ state: inout State, _ method: String, _ params: [String: JSONValue]) throws(ExchangeFailure)
        -> PluginAnswer
    {
        guard let process = state.process else { throw .closed }
        state.lastID += 1
        let id = state.lastID
        let request = JSONValue.object(["id": .integer(id), "method": .string(method), "params": .object(params)])
        let deadline = PluginProcess.deadline(after: settings.timeout)
        var line: [UInt8]
        do throws(PluginIOFailure) {
            try process.send(Array(request.canonicalData()), deadline: deadline)
            repeat {
                line = try process.receiveLine(limit: settings.maxAnswerBytes, deadline: deadline)
            } while line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
        } catch {
            switch error {
            case .closed: throw .closed
            case .timedOut: throw .timedOut
            case .tooLong: throw .tooLong
            case .system(let text): throw .system(text)
            }
        }
        let answer: JSONValue
        do {
            answer = try JSONValue.parse(Data(line))
        } catch {
            let start = OneLine.quote(String(decoding: line.prefix(60), as: UTF8.self), limit: 40)
            throw .violation("it answered \(start), which is not a JSON object")
        }
        guard case .object = answer else {
            throw .violation("it answered \(answer.kindDescription), not a JSON object")
        }
        guard answer["id"]?.integerValue == id else {
            throw .violation(
                "it answered with id \(answer["id"].map { $0.canonicalString() } ?? "none") to request \(id)")
        }
        if let error = answer["error"], !error.isNull {
            let message = error["message"]?.stringValue.map(Self.line) ?? ""
            return .refused(message.isEmpty ? "field type '\(name)' refused without a message" : message)
        }
        guard let result = answer["result"] else { throw .violation("its answer has neither 'result' nor 'error'") }
        return .result(result)
    }

    /// Records `error` as the plugin's failure, stops it, and warns once.
    private func fail(_ state: inout State, _ error: ExchangeFailure, method: String) {
        guard state.failure == nil else { return }
        let limit = ExternalFieldTypeSettings.describe(settings.timeout)
        let restarted = state.starts > 1 ? " (after one restart)" : ""
        let failure: ExternalFieldTypesError
        switch error {
        case .closed:
            state.process?.stop(grace: 0.2)
            let ending = state.process?.ending ?? "exited"
            failure = ExternalFieldTypesError(.exited, "\(path) \(ending) before answering '\(method)'\(restarted)")
        case .timedOut:
            state.process?.stop()
            failure = ExternalFieldTypesError(
                .timedOut, "\(path) did not answer '\(method)' within \(limit) and was stopped")
        case .tooLong:
            state.process?.stop()
            failure = ExternalFieldTypesError(
                .answerTooLong,
                "\(path) answered '\(method)' with a line longer than "
                    + "\(settings.maxAnswerBytes) bytes and was stopped")
        case .system(let text):
            state.process?.stop()
            failure = ExternalFieldTypesError(.startFailed, "\(path) could not be talked to: \(text)")
        case .violation(let detail):
            state.process?.stop()
            failure = ExternalFieldTypesError(
                .notProtocol,
                "\(path) does not speak the field-type protocol: \(Self.line(detail)) (method '\(method)')")
        case .wrongName(let other):
            state.process?.stop()
            failure = ExternalFieldTypesError(
                .wrongName,
                "\(path) says it is field type \(OneLine.quote(other)), "
                    + "but its file name makes it '\(name)'; rename the file or fix its 'describe'")
        }
        record(&state, failure)
    }

    /// Keeps `failure` for good and says it once.
    private func record(_ state: inout State, _ failure: ExternalFieldTypesError) {
        guard state.failure == nil else { return }
        state.process?.stop()
        state.process = nil
        state.failure = failure
        settings.warn("\(reason(failure)); its answers are kept but not judged")
    }

    /// `field type 'x' is unavailable: ...`.
    private func reason(_ failure: ExternalFieldTypesError?) -> String {
        "field type '\(name)' is unavailable: \(failure?.message ?? "\(path) failed")"
    }

    /// Text from a plugin as one line for a message.
    static func line(_ text: String) -> String {
        OneLine.cut(OneLine.flatten(text, lineBreak: " "), limit: 300, ellipsis: "...").trimmingCharacters(
            in: .whitespaces)
    }
}
