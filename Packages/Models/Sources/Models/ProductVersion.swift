/// The version of JanitorialQC's programs (jqc, jqc-agent, jqc-server),
/// released together: what `--version` prints and the app version the
/// device sends and compares with a server's minimum.
public enum ProductVersion {
    public static let current = "0.1.0"
    /// The day this version was made (YYYY-MM-DD): the date of the man pages.
    /// Change it with `current`.
    public static let date = "2026-12-01"
}
