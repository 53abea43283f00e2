import ServerCore
import Testing

@Suite("Route table")
struct RouterTests {
    @Test("every endpoint has exactly one route")
    func everyEndpointRouted() {
        for endpoint in Endpoint.allCases {
            #expect(Router.table.filter { $0.endpoint == endpoint }.count == 1, "\(endpoint)")
        }
    }

    @Test("paths resolve to their route with parameters, and unknown ones do not")
    func matching() throws {
        let upload = try #require(Router.table.first { $0.endpoint == .contract(.uploadPhoto) })
        #expect(
            Router.match(method: "POST", path: "/api/v1/reports/R7/photos")
                == .route(upload, parameters: ["server_id": "R7"]))
        #expect(Router.match(method: "DELETE", path: "/api/v1/rollup") == .wrongMethod(allowed: ["GET"]))
        #expect(Router.match(method: "GET", path: "/api/v1/reports/../../etc/passwd") == .notFound)
        #expect(Router.match(method: "GET", path: "/api/v2/rollup") == .notFound)
    }
}
