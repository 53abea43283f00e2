import Foundation
import Models

/// Headless Chromium driven through chromedriver's WebDriver protocol
/// (plain HTTP and JSON on loopback): a real browser for a test to open a
/// console page in, sign in through the form, and read what is shown.
/// Debian's `chromium` and `chromium-driver` (Tools/setup). Synchronous:
/// run it on a thread of its own (`OwnThread`).
public final class HeadlessBrowser: @unchecked Sendable {
    private let driver: ChildProcess
    private let port: UInt16
    private let session: String
    private let profile = TemporaryDirectory()

    /// Starts chromedriver and a headless Chromium session.
    public init() throws {
        for program in ["/usr/bin/chromium", "/usr/bin/chromedriver"]
        where !FileManager.default.isExecutableFile(atPath: program) {
            throw BrowserError(message: "\(program) is missing; run Tools/setup")
        }
        port = try Self.freePort()
        driver = try ChildProcess(
            "/usr/bin/chromedriver", ["--port=\(port)"], environment: ProcessInfo.processInfo.environment)
        var ready = false
        for _ in 0..<100 where !ready {
            ready = (try? Self.call(port, "GET", "/status"))?["ready"]?.boolValue == true
            if !ready { usleep(100_000) }
        }
        guard ready else {
            driver.signal(SIGKILL)
            throw BrowserError(message: "chromedriver did not start on port \(port)")
        }
        let options: JSONValue = [
            "binary": "/usr/bin/chromium",
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,900", .string("--user-data-dir=\(profile.path("chromium"))"),
            ],
        ]
        let created = try Self.call(
            port, "POST", "/session", ["capabilities": ["alwaysMatch": ["goog:chromeOptions": options]]])
        guard let id = created["sessionId"]?.stringValue else {
            driver.signal(SIGKILL)
            throw BrowserError(message: "chromedriver made no session: \(created)")
        }
        session = id
    }

    deinit {
        // Ending the session closes Chromium; chromedriver itself does not end on SIGTERM.
        _ = try? Self.call(port, "DELETE", "/session/\(session)")
        driver.signal(SIGKILL)
        _ = driver.wait()
    }

    /// Opens `url` and waits for the page to load.
    public func open(_ url: String) throws {
        _ = try command("POST", "/url", ["url": .string(url)])
    }

    /// The first element `css` matches; throws naming it when there is none.
    public func element(_ css: String) throws -> String {
        let found = try command("POST", "/element", ["using": "css selector", "value": .string(css)])
        guard let id = found.objectValue?.values.first?.stringValue else {
            throw BrowserError(message: "no element '\(css)' on \(try currentURL()): \(found)")
        }
        return id
    }

    /// Every element `css` matches, in document order.
    public func elements(_ css: String, within parent: String? = nil) throws -> [String] {
        let path = parent.map { "/element/\($0)/elements" } ?? "/elements"
        let found = try command("POST", path, ["using": "css selector", "value": .string(css)])
        return found.arrayValue?.compactMap { $0.objectValue?.values.first?.stringValue } ?? []
    }

    /// Types `text` into an element.
    public func type(_ text: String, into element: String) throws {
        _ = try command("POST", "/element/\(element)/value", ["text": .string(text)])
    }

    /// Clicks an element (a submit button: the next page has loaded when this returns).
    public func click(_ element: String) throws {
        _ = try command("POST", "/element/\(element)/click", [:])
    }

    /// An element's text as shown.
    public func text(of element: String) throws -> String {
        try command("GET", "/element/\(element)/text").stringValue ?? ""
    }

    /// The address the browser is at.
    public func currentURL() throws -> String {
        try command("GET", "/url").stringValue ?? ""
    }

    /// Signs in through the console's form.
    public func signIn(_ base: String, _ username: String, _ password: String) throws {
        try open(base + "/console/sign-in")
        try type(username, into: try element("form#sign-in input[name=username]"))
        try type(password, into: try element("form#sign-in input[name=password]"))
        try click(try element("form#sign-in button[type=submit]"))
    }

    private func command(_ method: String, _ path: String, _ body: JSONValue? = nil) throws -> JSONValue {
        try Self.call(port, method, "/session/\(session)" + path, body)
    }

    /// One WebDriver request; its `value`, or a throw with the driver's error.
    private static func call(_ port: UInt16, _ method: String, _ path: String, _ body: JSONValue? = nil) throws
        -> JSONValue
    {
        let request = body.map { RawHTTP.json(method, path, $0) } ?? RawHTTP.request(method, path)
        guard let response = try RawConnection(port: port).exchange(request, timeout: 60) else {
            throw BrowserError(message: "chromedriver did not answer \(method) \(path)")
        }
        let parsed = try JSONValue.parse(response.body)
        let value = parsed["value"] ?? .null
        guard response.status == 200 else {
            throw BrowserError(
                message: "\(method) \(path): \(response.status) \(value["message"]?.stringValue ?? "\(value)")")
        }
        return value
    }

    /// A loopback port free now (a socket bound to it, then closed), for chromedriver to listen on.
    private static func freePort() throws -> UInt16 {
        let (fd, port) = try CannedHTTPServer.listen()
        close(fd)
        return UInt16(port)
    }
}

/// Why the browser could not do what a test asked.
public struct BrowserError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
