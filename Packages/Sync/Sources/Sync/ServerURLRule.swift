/// The one rule every request to a server passes (it is checked when an
/// `APIClient` is made, before anything is sent or any name is looked up):
/// plain `http://` only to the loopback address, so a password or a token
/// never crosses a network in cleartext.
public enum ServerURLRule {
    /// True when `host` (as `URLComponents` gives it, with or without the
    /// brackets of an IPv6 literal) is the loopback address: 127.0.0.0/8,
    /// `localhost` or `::1`. Anything else, written in any other way
    /// (`0177.0.0.1`, `2130706433`, `foo.localhost`), is not.
    public static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased()
        if name == "localhost" || name == "::1" || name == "[::1]" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(part), value <= 255, part == "0" || !part.hasPrefix("0")
            else { return false }
        }
        return parts[0] == "127"
    }

    /// The line a person reads when `url` is plain `http://` to `host`, not the loopback address.
    static func refusal(_ url: String, host: String) -> String {
        let https = "https://" + url.drop { $0 != ":" }.dropFirst(3)
        return
            "Refusing plain http:// to '\(host)': the password and tokens would cross the network in cleartext. Use https (\(https)); http:// is only for the loopback address (127.0.0.1, localhost, [::1]). Nothing was sent."
    }
}
