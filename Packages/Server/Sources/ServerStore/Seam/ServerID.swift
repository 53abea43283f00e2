/// Server ids of new reports: `R-` and 24 hex digits from libsodium's CSPRNG
/// (96 bits), so no id can be guessed from another. Reports stored before
/// kept their sequential ids (`R1`, `R2`, ...), which still work: an id is
/// only ever looked up, never parsed.
public enum ServerID {
    /// A new random server id.
    public static func make() -> String { "R-" + Hex.encode(PasswordHasher.randomBytes(12)) }
}
