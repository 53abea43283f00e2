import Foundation
import Networking

/// The one error type of the API client: what went wrong talking to a JQC
/// server, as one line a person can act on, with a code programs branch on.
///
/// Never carries a token, a password or a request body.
public struct APIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong; stable, for programs and tests.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code as written where it leaves the module (logs, `--json`, the wire).
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The raw code.
        public var description: String { rawValue }

        /// 401: the session is over (or the sign-in was refused); sign in again.
        public static let authRequired = Code("AUTH_REQUIRED")
        /// 403: the account may not do this.
        public static let forbidden = Code("FORBIDDEN")
        /// 404: no such report, facility or route.
        public static let notFound = Code("NOT_FOUND")
        /// 409: a stale base revision.
        public static let conflict = Code("CONFLICT")
        /// 413: the request (a batch or a photo) is larger than the server takes.
        public static let tooLarge = Code("TOO_LARGE")
        /// 422 `PHOTO_HASH_MISMATCH`: the uploaded bytes do not hash to the sha256 sent.
        public static let hashMismatch = Code("PHOTO_HASH_MISMATCH")
        /// 400 and any other 4xx: the server cannot use the request.
        public static let badRequest = Code("BAD_REQUEST")
        /// 429: too many requests; see `retryAfter`.
        public static let rateLimited = Code("RATE_LIMITED")
        /// 503: the server is busy or down for now; see `retryAfter`.
        public static let unavailable = Code("UNAVAILABLE")
        /// 507 `STORAGE_FULL`: the server's disk is full; see `retryAfter`. Transient, like 503.
        public static let storageFull = Code("STORAGE_FULL")
        /// Any other 5xx: the server failed; transient.
        public static let serverError = Code("SERVER_ERROR")
        /// No connection: the host is unreachable or did not answer in time.
        public static let offline = Code("OFFLINE")
        /// The connection broke before a complete answer; the server may have acted.
        public static let connectionLost = Code("CONNECTION_LOST")
        /// An answer that is not the JQC API: not JSON, not the envelope, wrong types, or too large.
        public static let invalidResponse = Code("INVALID_RESPONSE")
        /// TLS failed, certificate verification included.
        public static let tls = Code("TLS")
        /// A photo file to upload could not be read.
        public static let fileUnreadable = Code("FILE_UNREADABLE")
        /// The calling task was cancelled.
        public static let cancelled = Code("CANCELLED")
        /// The request could not be made at all (a bad server URL, a library failure).
        public static let transport = Code("TRANSPORT")
        /// The app could not keep credentials the server rotated: the old ones
        /// are spent, so the next run would find the session over.
        public static let sessionNotSaved = Code("SESSION_NOT_SAVED")
    }

    /// What went wrong.
    public let code: Code
    /// One line for a person: what happened, naming the server, and what to do.
    public let message: String
    /// The HTTP status, when an answer arrived.
    public let status: Int?
    /// The contract's machine code from the error envelope (`BAD_REQUEST`, ...), when there was one.
    public let serverCode: String?
    /// Seconds the server asked to wait before trying again (429, 503 and 507).
    public let retryAfter: Double?

    /// An error; `status`, `serverCode` and `retryAfter` only when the server gave them.
    public init(
        _ code: Code, _ message: String, status: Int? = nil, serverCode: String? = nil, retryAfter: Double? = nil
    ) {
        self.code = code
        self.message = message
        self.status = status
        self.serverCode = serverCode
        self.retryAfter = retryAfter
    }

    /// True when trying again later may succeed without anyone changing anything.
    public var isTransient: Bool {
        switch code {
        case .offline, .connectionLost, .rateLimited, .unavailable, .storageFull, .serverError: true
        case .invalidResponse: (status ?? 0) >= 500
        default: false
        }
    }

    /// The one-line message.
    public var description: String { message }
}

extension APIError {
    /// The message every expired or revoked session ends with.
    static let signInAgain = "Sign in again with 'jqc login'; nothing on this device was lost."

    /// The API's view of a transport failure.
    init(_ error: NetworkingError) {
        let code: Code =
            switch error.code {
            case .unreachable, .timedOut: .offline
            case .connectionLost: .connectionLost
            case .tls: .tls
            case .tooLarge: .invalidResponse
            case .fileUnreadable: .fileUnreadable
            case .cancelled: .cancelled
            default: .transport // `.transport`, and any failure Networking's catalogue gains later
            }
        self.init(code, error.message)
    }

    /// The error for a non-2xx answer, or one that is not the API's envelope.
    static func from(_ response: HTTPResponse, host: String, authenticated: Bool) -> APIError {
        let status = response.status
        let retryAfter = RetryAfter.seconds(response.headers["retry-after"])
        let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: response.body)
        let serverCode = envelope?.code
        let said = envelope.map { oneLine($0.error) } ?? ""
        let reason = said.isEmpty ? "" : ": \(said)"
        let wait = retryAfter.map { "; try again in \(Self.format($0)) s" } ?? "; try again later"
        switch status {
        case 429:
            return APIError(
                .rateLimited, "The server at \(host) asks to slow down (HTTP 429)\(reason)\(wait).",
                status: status, serverCode: serverCode, retryAfter: retryAfter)
        case 503:
            return APIError(
                .unavailable, "The server at \(host) is busy or down (HTTP 503)\(wait).",
                status: status, serverCode: serverCode, retryAfter: retryAfter)
        case 507:
            return APIError(
                .storageFull,
                "The server at \(host) cannot store anything: its disk is full (HTTP 507); "
                    + "nothing on this device was lost\(wait).",
                status: status, serverCode: serverCode, retryAfter: retryAfter)
        default:
            break
        }
        guard envelope != nil else { return notTheAPI(response, host: host) }
        switch status {
        case 401 where authenticated:
            return APIError(.authRequired, signInAgain, status: status, serverCode: serverCode)
        case 401:
            return APIError(
                .authRequired, "The server at \(host) refused the sign-in\(reason).", status: status,
                serverCode: serverCode)
        case 403:
            return APIError(
                .forbidden, "The server at \(host) does not allow this for your account\(reason).",
                status: status, serverCode: serverCode)
        case 404:
            return APIError(
                .notFound, "The server at \(host) has no such thing\(reason).", status: status, serverCode: serverCode)
        case 409:
            return APIError(
                .conflict, "The server at \(host) has a newer revision\(reason).", status: status,
                serverCode: serverCode)
        case 413:
            return APIError(
                .tooLarge, "The server at \(host) refused a request that is too large\(reason).",
                status: status, serverCode: serverCode)
        case 422 where serverCode == ServerCode.photoHashMismatch.rawValue:
            return APIError(
                .hashMismatch,
                "The server at \(host) received photo bytes that do not match their sha256; "
                    + "nothing was stored. Check the photo file on this device.", status: status, serverCode: serverCode
            )
        case 500...599:
            return APIError(
                .serverError, "The server at \(host) failed (HTTP \(status))\(reason); it will be tried again.",
                status: status, serverCode: serverCode)
        default:
            return APIError(
                .badRequest, "The server at \(host) could not use the request (HTTP \(status))\(reason).",
                status: status, serverCode: serverCode)
        }
    }

    /// An answer that is not the contract's: an HTML error page, truncated or mistyped JSON.
    static func notTheAPI(_ response: HTTPResponse, host: String) -> APIError {
        let type =
            response.headers["content-type"].flatMap { $0.split(separator: ";").first }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "no content type"
        return APIError(
            .invalidResponse,
            "The server at \(host) answered something that is not the JQC API "
                + "(HTTP \(response.status), \(type)).", status: response.status)
    }

    /// A server's text on one line, at most 200 characters.
    private static func oneLine(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        return line.count > 200 ? String(line.prefix(199)) + "…" : line
    }

    /// Whole seconds as they are, others to a tenth; a wait past any integer (`Retry-After:
    /// 99999999999999999999`) in exponent form rather than a trap.
    private static func format(_ seconds: Double) -> String {
        if seconds == seconds.rounded(), let whole = Int64(exactly: seconds) { return String(whole) }
        return seconds < 1e15 ? String(format: "%.1f", seconds) : String(format: "%.3g", seconds)
    }
}

/// The failure half of the envelope; the success half is decoded with the payload's type.
struct ErrorEnvelope: Decodable {
    let error: String
    let code: String?

    private enum Keys: String, CodingKey { case ok, error, code }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        guard try c.decode(Bool.self, forKey: .ok) == false else {
            throw DecodingError.dataCorruptedError(forKey: .ok, in: c, debugDescription: "not an error envelope")
        }
        error = try c.decodeIfPresent(String.self, forKey: .error) ?? ""
        code = try c.decodeIfPresent(String.self, forKey: .code)
    }
}

/// The `Retry-After` header: delta-seconds, or an HTTP date.
enum RetryAfter {
    /// Seconds to wait, never negative; nil when absent or unreadable.
    static func seconds(_ value: String?, now: Date = Date()) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value), seconds.isFinite { return max(0, seconds) }
        guard let date = httpDate(value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// An HTTP date (RFC 9110 IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`),
    /// read by hand: Foundation's DateFormatter traps on some text and when
    /// its time-zone data cannot be read.
    static func httpDate(_ value: String) -> Date? {
        let words = value.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard words.count == 6, words[0].hasSuffix(","), words[5] == "GMT",
            let day = Int32(words[1]), (1...31).contains(day), words[1].count == 2,
            let month = months.firstIndex(of: String(words[2])),
            let year = Int32(words[3]), words[3].count == 4
        else { return nil }
        let clock = words[4].split(separator: ":")
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int32(clock[0]), let minute = Int32(clock[1]), let second = Int32(clock[2]),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = Int32(month)
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        let seconds = timegm(&parts)
        guard seconds != -1 || (year == 1969) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
