import Foundation
import ServerHTTP
import ServerStore

/// A matched request, ready for its endpoint's handler.
struct RouteInput: Sendable {
    var request: ServerRequest
    var parameters: [String: String]
    var caller: Caller?
    /// The verified token of a route that reads its caller in its own first
    /// transaction (`ServerApp.caller(of:in:)`), instead of in one before it.
    var claims: AccessClaims?
    /// The caller such a route read, once it has.
    let confirmed = ConfirmedCaller()

    /// The caller; every route that needs a token has one.
    func requireCaller() throws(ServerError) -> Caller {
        guard let caller else { throw ServerError.authRequired() }
        return caller
    }

    /// A path parameter.
    func parameter(_ name: String) throws(ServerError) -> String {
        guard let value = parameters[name] else { throw ServerError.notFound("missing '\(name)' in the path") }
        return value
    }

    /// The JSON body decoded as `T`; 400 with a one-line reason otherwise.
    func decode<T: Decodable>(_ type: T.Type) throws(ServerError) -> T {
        guard case .data(let data) = request.body else {
            throw ServerError.badRequest("the request needs a JSON body")
        }
        return try JSONBody.decode(type, from: data)
    }
}
