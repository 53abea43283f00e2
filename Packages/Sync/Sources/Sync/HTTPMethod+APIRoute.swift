import APIRoutes
import Networking

extension HTTPMethod {
    /// The method of a route of the contract's table.
    init(_ method: APIRoute.Method) {
        switch method {
        case .get: self = .get
        case .post: self = .post
        case .patch: self = .patch
        case .head: self = .head
        }
    }
}
