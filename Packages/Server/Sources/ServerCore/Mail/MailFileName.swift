import Foundation

/// An attachment's file name as MIME parameters: a short plain ASCII name
/// as it is (`filename="report.pdf"`); any other name in RFC 2231's
/// `filename*=UTF-8''...` (cut into `filename*0*`, `filename*1*`... when
/// long), with an ASCII stand-in (`Rapport ete.pdf` for `Rapport été.pdf`)
/// in the `Content-Type`'s `name` for readers that know only that.
///
/// The stand-in is not repeated as `filename`: one parameter given twice in a
/// header is a duplicate to strict readers (Python's `email` keeps the first,
/// which would be the stand-in).
struct MailFileName {
    /// The longest name written as it is, and the longest stand-in.
    static let plainLimit = 60
    /// The longest piece of a percent-encoded name on one line.
    static let pieceLength = 50

    /// ` name="..."`, for `Content-Type`.
    let typeParameter: String
    /// ` filename=...`, for `Content-Disposition`, one segment a line.
    let dispositionParameters: [String]

    /// The parameters for `fileName` (any text from outside).
    init(_ fileName: String) {
        let name = MIMEEncoding.withoutControls(fileName).trimmingCharacters(in: .whitespaces)
        if Self.isPlain(name) {
            typeParameter = " name=\"\(name)\""
            dispositionParameters = [" filename=\"\(name)\""]
            return
        }
        typeParameter = " name=\"\(Self.standIn(name))\""
        let pieces = MIMEEncoding.percentEncodedPieces(name.isEmpty ? "attachment" : name, length: Self.pieceLength)
        if pieces.count == 1 {
            dispositionParameters = [" filename*=UTF-8''" + pieces[0]]
        } else {
            dispositionParameters = pieces.enumerated().map { index, piece in
                let value = index == 0 ? "UTF-8''" + piece : piece
                return " filename*\(index)*=" + value + (index == pieces.count - 1 ? "" : ";")
            }
        }
    }

    /// Whether `name` can be a quoted-string as it is: short printable ASCII
    /// with no `"` or `\` (which many readers do not unescape) and nothing
    /// that looks like an encoded-word.
    private static func isPlain(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= plainLimit && MIMEEncoding.isPrintableASCII(name)
            && !name.contains("\"") && !name.contains("\\") && !name.contains("=?")
    }

    /// `name` in printable ASCII: accents dropped, any other character `_`,
    /// cut to 60 characters keeping a short extension; `attachment` for nothing.
    static func standIn(_ name: String) -> String {
        var ascii = ""
        for character in name.folding(options: .diacriticInsensitive, locale: nil) {
            let keeps = character.unicodeScalars.count == 1 && isPlain(String(character))
            ascii.append(keeps ? character : "_")
        }
        if ascii.isEmpty { return "attachment" }
        guard ascii.count > plainLimit else { return ascii }
        let fileExtension = ascii.split(separator: ".").last.map(String.init) ?? ""
        guard ascii.contains("."), fileExtension.count <= 10 else { return String(ascii.prefix(plainLimit)) }
        return String(ascii.prefix(plainLimit - fileExtension.count - 1)) + "." + fileExtension
    }
}
