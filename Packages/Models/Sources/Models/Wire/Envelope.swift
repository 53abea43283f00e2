/// The contract's response envelope: `{"ok": true, "data": ...}` or
/// `{"ok": false, "error": "...", "code": "..."}`.
public enum Envelope<Payload: Sendable>: Sendable {
    case success(Payload)
    case failure(code: String, message: String)
}

private enum EnvelopeKeys: String, CodingKey { case ok, data, error, code }

extension Envelope: Decodable where Payload: Decodable {

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: EnvelopeKeys.self)
        if try c.decode(Bool.self, forKey: .ok) {
            self = .success(try c.decode(Payload.self, forKey: .data))
        } else {
            let message = try c.decodeIfPresent(String.self, forKey: .error) ?? "the server gave no reason"
            let code = try c.decodeIfPresent(String.self, forKey: .code) ?? "UNKNOWN"
            self = .failure(code: code, message: message)
        }
    }
}

extension Envelope: Encodable where Payload: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: EnvelopeKeys.self)
        switch self {
        case .success(let payload):
            try c.encode(true, forKey: .ok)
            try c.encode(payload, forKey: .data)
        case .failure(let code, let message):
            try c.encode(false, forKey: .ok)
            try c.encode(message, forKey: .error)
            try c.encode(code, forKey: .code)
        }
    }
}
