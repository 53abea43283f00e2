/// A stated limit on the length of text, held in characters (grapheme
/// clusters) and in bytes of UTF-8 alike: one character may carry any
/// number of combining marks, so a count of characters alone bounds nothing.
enum TextLimit {
    /// The bytes of UTF-8 a limit of `characters` allows: four a character.
    static func bytes(_ characters: Int) -> Int { characters * 4 }

    /// Whether `text` is at most `characters` characters and `bytes(characters)` bytes
    /// (the bytes are counted first, so a huge text is never walked for its characters).
    static func fits(_ text: String, _ characters: Int) -> Bool {
        text.utf8.count <= bytes(characters) && text.count <= characters
    }

    /// The limit in words: "100 characters (400 bytes of UTF-8)".
    static func words(_ characters: Int) -> String {
        "\(characters) characters (\(bytes(characters)) bytes of UTF-8)"
    }
}
