internal import CCurl
import Foundation

/// Owns one libcurl easy handle (`CURL *`) set up for one mail relay, used for
/// every message an `SMTPSender` sends, so that libcurl's connection cache
/// keeps the SMTP connection open from one message to the next.
///
/// Not `Sendable`, like `EasyHandle`: the thread that owns the sender makes,
/// uses and frees it, and libcurl's callbacks run on that thread inside
/// `curl_easy_perform`, so the message being read and the replies being
/// collected need no lock.
final class MailHandle {
    /// How one `send` ended: what libcurl said, the relay's last reply, and whether anything was heard.
    struct Transfer {
        var end: MailTransferEnd
        /// The relay's last reply in this transfer, nil when it said nothing.
        var reply: SMTPReply?
        /// libcurl's own detail for a failure, on one line without a final period.
        var detail: String
        /// Whether the transfer went over a connection kept from an earlier one.
        var reusedConnection: Bool
    }

    private let raw: UnsafeMutableRawPointer
    private let relay: SMTPRelay
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var resolveList: HeaderList?
    private var recipientList: HeaderList?
    /// The message being sent and how much of it libcurl has read.
    private var message: [UInt8] = []
    private var position = 0
    private var replies = ReplyLines()

    /// A handle for `relay`, its security and timeouts set once for every message.
    init(relay: SMTPRelay) throws(NetworkingError) {
        guard CurlGlobal.ready, let handle = curl_easy_init() else {
            throw NetworkingError(
                .transport, "Could not prepare mail to \(relay.host): libcurl failed to initialise.",
                url: relay.redactedURL)
        }
        raw = handle
        self.relay = relay
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        guard configure() else {
            throw NetworkingError(
                .transport, "Could not prepare mail to \(relay.host): libcurl refused an option.",
                url: relay.redactedURL)
        }
    }

    deinit {
        // Closes the kept connection (with QUIT) before the lists it may still refer to are freed.
        curl_easy_cleanup(raw)
        resolveList = nil
        recipientList = nil
        errorBuffer.deallocate()
    }

    private func configure() -> Bool {
        let me = Unmanaged.passUnretained(self).toOpaque()
        var ok = jqc_easy_setopt_string(raw, CURLOPT_URL, relay.url) == CURLE_OK
        ok = ok && jqc_easy_setopt_string(raw, CURLOPT_PROTOCOLS_STR, "smtp,smtps") == CURLE_OK
        // Timeouts use no signals: each sender runs on a thread of its own.
        ok = ok && jqc_easy_setopt_long(raw, CURLOPT_NOSIGNAL, 1) == CURLE_OK
        ok = ok && jqc_easy_setopt_long(raw, CURLOPT_CONNECTTIMEOUT_MS, Self.ms(relay.connectTimeout)) == CURLE_OK
        ok = ok && jqc_easy_setopt_long(raw, CURLOPT_TIMEOUT_MS, Self.ms(relay.totalTimeout)) == CURLE_OK
        // Also bounds the wait for the answer to QUIT when a kept connection is closed, which
        // the total timeout does not cover (libcurl's own default is 120 seconds).
        ok =
            ok
            && jqc_easy_setopt_long(raw, CURLOPT_SERVER_RESPONSE_TIMEOUT, Int(relay.totalTimeout.rounded(.up)))
                == CURLE_OK
        // smtp:// to another machine must upgrade with STARTTLS or not send at all;
        // plain text is left only to a relay on this machine (SMTPRelay checked which).
        ok = ok && jqc_easy_setopt_use_ssl(raw, relay.requiresTLS ? 1 : 0) == CURLE_OK
        // TLS verification is always on; there is deliberately no option to turn it off.
        ok = ok && jqc_easy_setopt_long(raw, CURLOPT_SSL_VERIFYPEER, 1) == CURLE_OK
        ok = ok && jqc_easy_setopt_long(raw, CURLOPT_SSL_VERIFYHOST, 2) == CURLE_OK
        if let path = relay.caCertificatePath {
            ok = ok && jqc_easy_setopt_string(raw, CURLOPT_CAINFO, path) == CURLE_OK
        }
        // A relay is reached directly: a proxy variable in the server's environment is not for mail.
        ok = ok && jqc_easy_setopt_string(raw, CURLOPT_PROXY, "") == CURLE_OK
        if !relay.pinnedAddresses.isEmpty {
            let list = HeaderList(lines: relay.pinnedAddresses)
            resolveList = list
            ok = ok && jqc_easy_setopt_slist(raw, CURLOPT_RESOLVE, list.raw) == CURLE_OK
        }
        if let user = relay.user {
            ok = ok && jqc_easy_setopt_string(raw, CURLOPT_USERNAME, user) == CURLE_OK
            ok = ok && jqc_easy_setopt_string(raw, CURLOPT_PASSWORD, relay.password ?? "") == CURLE_OK
            // AUTH PLAIN with its credentials on the same line: one round trip less.
            ok = ok && jqc_easy_setopt_long(raw, CURLOPT_SASL_IR, 1) == CURLE_OK
        }
        ok = ok && jqc_easy_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer) == CURLE_OK
        ok = ok && jqc_easy_setopt_long(raw, CURLOPT_UPLOAD, 1) == CURLE_OK
        ok =
            ok
            && jqc_easy_setopt_read_function(raw) { data, size, count, context in
                MailHandle.fill(data, size * count, context)
            } == CURLE_OK
        ok = ok && jqc_easy_setopt_pointer(raw, CURLOPT_READDATA, me) == CURLE_OK
        ok =
            ok
            && jqc_easy_setopt_seek_function(raw) { context, offset, origin in
                MailHandle.seek(context, offset, origin)
            } == CURLE_OK
        ok = ok && jqc_easy_setopt_pointer(raw, CURLOPT_SEEKDATA, me) == CURLE_OK
        // libcurl hands every line the relay sends to the header callback (greeting, EHLO, each command's reply).
        ok =
            ok
            && jqc_easy_setopt_write_function(raw, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                MailHandle.replyLine(data, size * count, context)
            } == CURLE_OK
        ok = ok && jqc_easy_setopt_pointer(raw, CURLOPT_HEADERDATA, me) == CURLE_OK
        // Nothing is downloaded, but nothing may ever reach libcurl's default writer (standard output) either.
        ok =
            ok
            && jqc_easy_setopt_write_function(raw, CURLOPT_WRITEFUNCTION) { _, size, count, _ in size * count }
                == CURLE_OK
        return ok
    }

    /// Sends one message on the calling thread, over the kept connection unless `freshConnection`.
    func send(from: String, to recipients: [String], message: [UInt8], freshConnection: Bool) -> Transfer {
        self.message = message
        position = 0
        replies = ReplyLines()
        errorBuffer[0] = 0
        defer { self.message = [] }
        let list = HeaderList(lines: recipients.map { "<\($0)>" })
        recipientList = list
        var ok = jqc_easy_setopt_string(raw, CURLOPT_MAIL_FROM, "<\(from)>") == CURLE_OK
        ok = ok && jqc_easy_setopt_slist(raw, CURLOPT_MAIL_RCPT, list.raw) == CURLE_OK
        ok = ok && jqc_easy_setopt_off_t(raw, CURLOPT_INFILESIZE_LARGE, curl_off_t(message.count)) == CURLE_OK
        ok = ok && jqc_easy_setopt_long(raw, CURLOPT_FRESH_CONNECT, freshConnection ? 1 : 0) == CURLE_OK
        guard ok else {
            return Transfer(end: .other, reply: nil, detail: "libcurl refused the envelope", reusedConnection: false)
        }
        let code = curl_easy_perform(raw)
        var connects = 0
        _ = jqc_easy_getinfo_long(raw, CURLINFO_NUM_CONNECTS, &connects)
        var reply = replies.reply.map(redacted)
        if reply == nil {
            var last = 0
            if jqc_easy_getinfo_long(raw, CURLINFO_RESPONSE_CODE, &last) == CURLE_OK, last > 0 {
                reply = SMTPReply(code: last, text: String(last))
            }
        }
        return Transfer(
            end: Self.end(of: code), reply: reply, detail: redacted(detail(for: code)),
            reusedConnection: connects == 0)
    }

    /// Makes the connection of the last transfer unusable, if libcurl kept it.
    ///
    /// libcurl 7.88 keeps a connection whose last reply timed out ("left
    /// intact"), mid-transaction; when it later closes it, it sends QUIT and
    /// waits for an answer the relay, still busy with the message, is not
    /// giving. Shut down here, the socket reads as closed: libcurl then drops
    /// the connection at once, with no QUIT and no wait, and the next message
    /// goes on a new one. The descriptor itself stays libcurl's to close.
    func abandonConnection() {
        var socket: curl_socket_t = -1
        guard jqc_easy_getinfo_socket(raw, CURLINFO_ACTIVESOCKET, &socket) == CURLE_OK, socket >= 0 else { return }
        _ = shutdown(socket, Int32(SHUT_RDWR))
    }

    // MARK: - Outcomes

    private static func end(of code: CURLcode) -> MailTransferEnd {
        switch code {
        case CURLE_OK:
            return .completed
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT:
            return .unreachable
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case CURLE_USE_SSL_FAILED:
            return .startTLSMissing
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CLIENTCERT:
            return .tls
        case CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_SEND_FAIL_REWIND:
            return .connectionLost
        default:
            return .other
        }
    }

    /// libcurl's own detail for the failure, on one line without a final period.
    private func detail(for code: CURLcode) -> String {
        var text = String(cString: errorBuffer)
        if text.isEmpty, let fallback = curl_easy_strerror(code) { text = String(cString: fallback) }
        text = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        while text.hasSuffix(".") || text.hasSuffix(" ") { text.removeLast() }
        return text
    }

    /// The password, and the base64 forms a relay could echo of it, never leave the handle.
    private func redacted(_ text: String) -> String {
        guard let password = relay.password, !password.isEmpty else { return text }
        let user = relay.user ?? ""
        let forms = [
            password, Data(password.utf8).base64EncodedString(),
            Data("\0\(user)\0\(password)".utf8).base64EncodedString(),
        ]
        return forms.reduce(text) { $0.replacingOccurrences(of: $1, with: "(hidden)") }
    }

    private func redacted(_ reply: SMTPReply) -> SMTPReply {
        SMTPReply(code: reply.code, text: redacted(reply.text))
    }

    // MARK: - Callbacks (static: they capture nothing and find the handle through user data)

    private static func handle(_ context: UnsafeMutableRawPointer?) -> MailHandle? {
        context.map { Unmanaged<MailHandle>.fromOpaque($0).takeUnretainedValue() }
    }

    private static func fill(_ data: UnsafeMutablePointer<CChar>?, _ capacity: Int, _ context: UnsafeMutableRawPointer?)
        -> Int
    {
        guard let handle = handle(context), let data else { return Int(CURL_READFUNC_ABORT) }
        let count = min(capacity, handle.message.count - handle.position)
        guard count > 0 else { return 0 }
        handle.message.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            UnsafeMutableRawPointer(data).copyMemory(from: base + handle.position, byteCount: count)
        }
        handle.position += count
        return count
    }

    /// The message is in memory, so libcurl may rewind it to any point.
    private static func seek(_ context: UnsafeMutableRawPointer?, _ offset: curl_off_t, _ origin: Int32) -> Int32 {
        guard let handle = handle(context), origin == SEEK_SET, offset >= 0, offset <= handle.message.count else {
            return Int32(CURL_SEEKFUNC_CANTSEEK)
        }
        handle.position = Int(offset)
        return Int32(CURL_SEEKFUNC_OK)
    }

    private static func replyLine(
        _ data: UnsafeMutablePointer<CChar>?, _ length: Int, _ context: UnsafeMutableRawPointer?
    ) -> Int {
        guard let handle = handle(context) else { return 0 }
        guard length > 0, let data else { return length }
        data.withMemoryRebound(to: UInt8.self, capacity: length) {
            handle.replies.add(String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self))
        }
        return length
    }

    private static func ms(_ seconds: Double) -> Int {
        max(1, Int((seconds * 1000).rounded()))
    }
}

/// The lines the relay sent, grouped into replies: a reply's last line has a
/// space (or nothing) after its code, the others a hyphen (`250-SIZE`, `250 HELP`).
/// The `221` that answers the QUIT libcurl sends when it closes a connection
/// after a failure is not kept: the reply that made the transfer fail is.
struct ReplyLines {
    private var current: [String] = []
    private var last: [String] = []

    /// Adds one line as libcurl passed it, CRLF included.
    mutating func add(_ line: String) {
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return }
        current.append(text)
        let utf8 = Array(text.utf8.prefix(4))
        if utf8.count < 4 || utf8[3] != UInt8(ascii: "-") {
            if !(text.hasPrefix("221") && !last.isEmpty) { last = current }
            current = []
        }
    }

    /// The relay's last reply: the one it was in the middle of when the connection broke, else the last complete one.
    var reply: SMTPReply? {
        let lines = current.isEmpty ? last : current
        return lines.isEmpty ? nil : SMTPReply(lines: lines)
    }
}
