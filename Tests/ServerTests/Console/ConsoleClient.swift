import Foundation
import TestSupport

/// A browser's part of the console's HTTP, for tests that need no script:
/// a cookie jar, forms posted URL-encoded, redirects not followed (so each
/// one is seen), one connection per request.
final class ConsoleClient: @unchecked Sendable {
    let server: ServerProcess
    /// Cookies by name, as the server last set them.
    private(set) var cookies: [String: String] = [:]
    /// The `Set-Cookie` lines of the last response.
    private(set) var lastSetCookies: [String] = []

    init(_ server: ServerProcess) { self.server = server }

    /// A console page or action: `path` under the server's root (`/console/...`).
    @discardableResult
    func get(_ path: String) throws -> RawResponse { try exchange("GET", path, body: nil) }

    /// Posts a form.
    @discardableResult
    func post(_ path: String, _ fields: [(String, String)]) throws -> RawResponse {
        let body = fields.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        return try exchange("POST", path, body: Data(body.utf8))
    }

    /// Posts a form as `multipart/form-data`, as a form with a file input
    /// sends it; `file` is the part named `file` (an empty one when nil, as
    /// a browser sends a file input left empty).
    @discardableResult
    func postMultipart(_ path: String, _ fields: [(String, String)], file: Data?) throws -> RawResponse {
        let boundary = "jqc-console-\(UUID().uuidString)"
        var body = Data()
        for (name, value) in fields {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n".utf8))
            body.append(Data(value.utf8) + Data("\r\n".utf8))
        }
        body.append(
            Data(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(file == nil ? "" : "photo.jpg")\"\r\nContent-Type: \(file == nil ? "application/octet-stream" : "image/jpeg")\r\n\r\n"
                    .utf8))
        body.append((file ?? Data()) + Data("\r\n--\(boundary)--\r\n".utf8))
        return try exchange("POST", path, body: body, contentType: "multipart/form-data; boundary=\(boundary)")
    }

    /// Signs in through the form; the response of the form's post.
    @discardableResult
    func signIn(_ username: String, _ password: String) throws -> RawResponse {
        let page = try get("/console/sign-in")
        return try post(
            "/console/sign-in",
            [
                ("csrf", Self.field("csrf", in: page.text) ?? ""), ("username", username),
                ("password", password), ("next", "/console/queue"),
            ])
    }

    /// The session's CSRF token, read from a page as a browser's form would carry it.
    func csrf() throws -> String {
        let page = try get("/console/queue")
        guard let token = Self.field("csrf", in: page.text) else {
            throw ServerLaunchError(message: "no csrf field on the queue page")
        }
        return token
    }

    /// Forgets one cookie, as a browser that never had it.
    func drop(_ name: String) { cookies[name] = nil }

    /// Sets a cookie, as another browser holding it would send it.
    func set(_ name: String, _ value: String) { cookies[name] = value }

    private func exchange(
        _ method: String, _ path: String, body: Data?, contentType: String = "application/x-www-form-urlencoded"
    ) throws -> RawResponse {
        let connection = try RawConnection(port: RawHTTP.port(of: server))
        let cookieHeader = cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")
        let request = RawHTTP.request(
            method, path, headers: cookieHeader.isEmpty ? [] : [("Cookie", cookieHeader)], body: body,
            contentType: contentType)
        guard let response = connection.exchange(request, timeout: 60) else {
            throw ServerLaunchError(message: "no answer to \(method) \(path)")
        }
        lastSetCookies = response.setCookies
        for line in lastSetCookies {
            let pair =
                line.split(separator: ";").first?.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                ?? []
            guard pair.count == 2 else { continue }
            let name = String(pair[0]).trimmingCharacters(in: .whitespaces)
            cookies[name] = pair[1].isEmpty || line.contains("Max-Age=0") ? nil : String(pair[1])
        }
        return response
    }

    /// The `value` of the first input named `name` in a page.
    static func field(_ name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = html[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    private static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

extension RawResponse {
    /// The body as text.
    var text: String { String(decoding: body, as: UTF8.self) }
}
