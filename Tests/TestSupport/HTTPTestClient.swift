import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Models

/// One response as a test sees it.
public struct TestResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    /// The body parsed as JSON.
    public var json: JSONValue { (try? JSONDecoder().decode(JSONValue.self, from: body)) ?? .null }
    /// The envelope's `data`.
    public var data: JSONValue { json["data"] ?? .null }
    /// The envelope's `code` on failure.
    public var code: String? { json["code"]?.stringValue }
    /// The envelope's human message on failure ("" on success).
    public var message: String { json["error"]?.stringValue ?? "" }
    /// A header by lowercased name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A tiny HTTP client for contract tests (Foundation's URLSession).
public struct HTTPTestClient: Sendable {
    private let session: URLSession

    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    /// Sends one request; throws only when no HTTP response arrived.
    public func send(
        _ method: String, _ url: String, body: Data? = nil, token: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> TestResponse {
        guard let target = URL(string: url) else { throw URLError(.badURL) }
        var request = URLRequest(url: target)
        request.httpMethod = method
        request.httpBody = body
        if body != nil && headers["Content-Type"] == nil {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.setValue("0.1.0", forHTTPHeaderField: "X-JQC-App-Version")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var lowered: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { lowered[key.lowercased()] = value }
        }
        return TestResponse(status: http.statusCode, headers: lowered, body: data)
    }

    /// Sends a JSON value.
    public func send(_ method: String, _ url: String, json: JSONValue, token: String? = nil) async throws
        -> TestResponse
    {
        try await send(method, url, body: try JSONEncoder().encode(json), token: token)
    }

    /// Sends `multipart/form-data` with text parts and an optional file part named `file`.
    public func upload(_ url: String, fields: [(String, String)], file: Data?, token: String?) async throws
        -> TestResponse
    {
        let boundary = "jqc-test-\(UUID().uuidString)"
        var body = Data()
        for (name, value) in fields {
            body.append(
                Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
        }
        if let file {
            body.append(
                Data(
                    "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"photo.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
                        .utf8))
            body.append(file)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return try await send(
            "POST", url, body: body, token: token,
            headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"])
    }
}
