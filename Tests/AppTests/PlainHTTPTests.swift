import Foundation
import Testing
import TestSupport

/// Plain `http://` is for the loopback address only (README, SECURITY.md):
/// to any other host the programs refuse before sending anything, for a
/// sign-in and for every later request of a saved session, with exit 2 and
/// one line saying to use https.
///
/// The hosts are under `.invalid`, which never resolves, and an `http_proxy`
/// on loopback stands between the programs and the network: libcurl would
/// hand it a request for any http:// URL without looking the name up, so a
/// proxy that hears nothing shows that nothing left the program.
@Suite("Plain http:// only to the loopback address")
struct PlainHTTPTests {
    /// A proxy that answers 502 to whatever reaches it, and the environment that sends every request through it.
    func proxy() throws -> (server: CannedHTTPServer, environment: [String: String]) {
        let server = try CannedHTTPServer([CannedHTTPServer.response(status: 502, contentType: "text/plain", "no")])
        let url = server.baseURL
        return (server, ["http_proxy": url, "HTTP_PROXY": url, "https_proxy": url, "all_proxy": url, "no_proxy": ""])
    }

    /// The one line every refusal is: exit 2, says to use https, names the host, nothing on stdout.
    func expectRefused(_ outcome: ProcessOutcome, host: String, _ comment: String) {
        #expect(outcome.status == 2, "\(comment): \(outcome.stderr)")
        #expect(outcome.stdout.isEmpty, "\(comment): \(outcome.stdout)")
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(comment): \(outcome.stderr)")
        #expect(outcome.stderr.contains("https://\(host)"), "\(comment): \(outcome.stderr)")
        #expect(outcome.stderr.contains("'\(host)'"), "\(comment): \(outcome.stderr)")
    }

    @Test(
        "jqc login refuses http:// to another host before sending the password anywhere",
        arguments: [
            "http://qc.example.invalid", "http://other.invalid:1", "http://QC.Example.Invalid/api/v1/",
            "http://127.0.0.1.example.invalid",
            "http://localhost.invalid",
        ])
    func login(_ url: String) throws {
        let (proxy, environment) = try proxy()
        defer { proxy.stop() }
        let profile = try DemoProfile()
        let outcome = try profile.jqc(
            ["login", "--server", url, "--username", "dana", "--password-stdin"],
            stdin: "secret-pass\n", environment: environment)
        let host = try #require(URLComponents(string: url)?.host)
        expectRefused(outcome, host: host, url)
        #expect(proxy.requests.isEmpty, "a request left the program: \(proxy.requests)")
        #expect(!FileManager.default.fileExists(atPath: profile.directory.path("credentials.json")))

        let json = try profile.jqc(
            ["login", "--server", url, "--username", "dana", "--password-stdin", "--json"],
            stdin: "secret-pass\n", environment: environment)
        #expect(json.status == 2)
        #expect(json.stdout.contains("\"USAGE\"") && json.stdout.contains("https"), "\(json.stdout)")
        #expect(proxy.requests.isEmpty)
    }

    @Test(
        "the loopback address may still be plain http: the sign-in is tried (and finds nothing listening)",
        arguments: [
            "127.0.0.1", "127.1.2.3", "localhost", "[::1]",
        ])
    func loopback(_ host: String) throws {
        let port = try CannedHTTPServer.closedPort()
        let profile = try DemoProfile()
        let outcome = try profile.jqc(
            ["login", "--server", "http://\(host):\(port)", "--username", "dana", "--password-stdin"],
            stdin: "secret-pass\n", environment: ["no_proxy": "*"])
        #expect(outcome.status == 75, "\(host): \(outcome.status) \(outcome.stderr)")
    }

    @Test("a saved session edited to http:// of another host is refused by sync, history and the agent, and kept")
    func savedSession() throws {
        let (proxy, environment) = try proxy()
        defer { proxy.stop() }
        let profile = try DemoProfile()
        let host = "qc.example.invalid"
        let saved: [String: Any] = [
            "server_url": "http://\(host)", "access_token": "access-token-1", "refresh_token": "refresh-token-1",
            "user": ["id": "u-1", "username": "dana", "role": "inspector", "display_name": "Dana"],
        ]
        let path = profile.directory.path("credentials.json")
        try JSONSerialization.data(withJSONObject: saved).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)

        for arguments in [["sync"], ["history"], ["sync", "--json"]] {
            let outcome = try profile.jqc(arguments, environment: environment)
            if arguments.contains("--json") {
                #expect(outcome.status == 2 && outcome.stdout.contains("https://\(host)"), "\(outcome.stdout)")
            } else {
                expectRefused(outcome, host: host, arguments.joined(separator: " "))
            }
        }
        var agentEnvironment = environment
        agentEnvironment["JQC_HOME"] = profile.home
        let once = try Programs.run("jqc-agent", ["run", "--once"], environment: agentEnvironment)
        #expect(once.status == 2, "\(once.stderr)")
        #expect(once.stderr.contains(host) && once.stderr.contains("https"), "\(once.stderr)")
        // The loop stops too: trying again in a minute cannot help.
        // (`timeout` ends a loop that would not stop, with 124.)
        let variables = agentEnvironment.map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
        let loop = try Programs.runShell("env \(variables) timeout 20 '\(Programs.path("jqc-agent"))' run --interval 1")
        #expect(loop.status == 2, "\(loop.status) \(loop.stderr)")

        #expect(proxy.requests.isEmpty, "a request left the program: \(proxy.requests)")
        #expect(FileManager.default.fileExists(atPath: path), "the saved session is kept")
        #expect(try profile.jqc(["whoami"]).status == 0)
    }
}
