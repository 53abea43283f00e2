import Foundation
import ProgramOutput

/// The progress of an export on a terminal's stderr: a bar of the reports
/// written out of those the snapshot holds, and the photos archived. Nothing
/// when stderr is not a terminal (a log, a pipe).
final class ExportProgress {
    private let total: Int
    private let photos: Bool
    private let shown = isatty(STDERR_FILENO) == 1
    private var reports = 0
    private var photoCount = 0
    private var lastDrawn = DispatchTime.now().uptimeNanoseconds

    init(total: Int, photos: Bool) {
        self.total = total
        self.photos = photos
    }

    func report() {
        reports += 1
        drawNow()
    }

    func photo() {
        photoCount += 1
        drawNow()
    }

    /// The last state, and the line ended.
    func done() {
        guard shown else { return }
        draw()
        OutputChannel.standardError.write("\n")
    }

    private func drawNow() {
        guard shown else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now &- lastDrawn > 100_000_000 else { return }
        lastDrawn = now
        draw()
    }

    private func draw() {
        let width = 30
        let fraction = total == 0 ? 1 : min(1, Double(reports) / Double(total))
        let filled = Int(fraction * Double(width))
        var line = "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] "
        line += "\(Int(fraction * 100))% \(reports)/\(total) reports"
        if photos { line += ", \(photoCount) photos" }
        OutputChannel.standardError.write(line)
    }
}
