import CPangoCairo
import Foundation

/// A PDF drawn page after page onto a file descriptor: Cairo writes each
/// page as it is finished, so memory stays flat however long the document.
/// The canvas keeps a cursor (`y`) that the drawing code moves down; what
/// does not fit below it goes on a new page, whose footer carries the page
/// number. Used by one thread at a time.
final class PDFCanvas {
    /// A4 in points.
    static let pageWidth = 595.276
    static let pageHeight = 841.89
    static let margin = 46.0
    /// The room the footer takes at the bottom of each page.
    static let footerHeight = 22.0

    let surface: OpaquePointer
    let cr: OpaquePointer
    let pango: OpaquePointer
    /// The cursor: where the next thing is drawn, from the page's top.
    var y = margin
    /// The page being drawn, from 1.
    private(set) var page = 0
    /// What each page's footer says before its number.
    var footer: String
    /// Drawn at the top of each page after the first (a table's header, say).
    var onNewPage: (() -> Void)?
    private let sink: Sink

    var left: Double { Self.margin }
    var width: Double { Self.pageWidth - 2 * Self.margin }
    var bottom: Double { Self.pageHeight - Self.margin - Self.footerHeight }

    /// Where the bytes go, and the first error met writing them.
    final class Sink {
        let descriptor: Int32
        var error: Int32 = 0
        init(_ descriptor: Int32) { self.descriptor = descriptor }

        func write(_ data: UnsafePointer<UInt8>, _ count: Int) -> Bool {
            var done = 0
            while done < count {
                let wrote = Foundation.write(descriptor, data + done, count - done)
                if wrote < 0 {
                    if errno == EINTR { continue }
                    error = errno
                    return false
                }
                done += wrote
            }
            return true
        }
    }

    init(descriptor: Int32, title: String, footer: String) throws(DocumentsError) {
        sink = Sink(descriptor)
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        guard
            let surface = cairo_pdf_surface_create_for_stream(
                { closure, data, length in
                    guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                    let sink = Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue()
                    return sink.write(data, Int(length)) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
                }, closure, Self.pageWidth, Self.pageHeight),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { throw DocumentsError(.drawingFailed, "Cairo could not start a PDF") }
        self.surface = surface
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, OutsideText.clean(title, limit: 200))
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "JanitorialQC")
        cr = cairo_create(surface)
        pango = pango_cairo_create_context(cr)
        // One point of text is one unit of the page.
        pango_cairo_context_set_resolution(pango, 72)
        self.footer = footer
        newPage()
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(pango))
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    /// Ends the page (its footer drawn) and begins the next.
    func newPage() {
        if page > 0 {
            drawFooter()
            cairo_show_page(cr)
        }
        page += 1
        y = Self.margin
        if page > 1 { onNewPage?() }
    }

    /// Goes to a new page unless `height` more points fit below the cursor.
    func ensure(_ height: Double) {
        if y + height > bottom && y > Self.margin { newPage() }
    }

    /// Finishes the document: the last footer, every byte written.
    func finish() throws(DocumentsError) {
        // A drawing error stops every later drawing silently: the document would be short.
        let drawing = cairo_status(cr)
        guard drawing == CAIRO_STATUS_SUCCESS else {
            throw DocumentsError(
                .drawingFailed, "Cairo could not draw the PDF: \(String(cString: cairo_status_to_string(drawing)))")
        }
        drawFooter()
        cairo_show_page(cr)
        cairo_surface_finish(surface)
        if sink.error != 0 {
            throw DocumentsError(
                .writeFailed, "the PDF could not be written: \(String(cString: strerror(sink.error)))")
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw DocumentsError(
                .drawingFailed, "Cairo could not draw the PDF: \(String(cString: cairo_status_to_string(status)))")
        }
    }

    private func drawFooter() {
        let style = TextStyle.small
        let text = "\(footer) · page \(page)"
        let layout = makeLayout(text, style: style, width: width)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        style.color.set(cr)
        cairo_move_to(cr, left, Self.pageHeight - Self.margin - 10)
        pango_cairo_show_layout(cr, layout)
        cairo_set_source_rgb(cr, 0.8, 0.8, 0.8)
        cairo_set_line_width(cr, 0.5)
        cairo_move_to(cr, left, Self.pageHeight - Self.margin - 14)
        cairo_line_to(cr, left + width, Self.pageHeight - Self.margin - 14)
        cairo_stroke(cr)
    }

    /// A Pango layout of `text` (plain text, never markup) wrapped to `width` points.
    func makeLayout(_ text: String, style: TextStyle, width: Double) -> OpaquePointer {
        let layout = pango_layout_new(pango)!
        let font = pango_font_description_from_string(style.font)
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        pango_layout_set_width(layout, Int32(max(width, 1) * Double(PANGO_SCALE)))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_auto_dir(layout, 1)
        if style.alignRight { pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT) }
        let clean = OutsideText.clean(text, limit: style.limit)
        pango_layout_set_text(layout, clean, Int32(clean.utf8.count))
        return layout
    }

    /// The height `text` takes at `width`.
    func measure(_ text: String, style: TextStyle, width: Double) -> Double {
        let layout = makeLayout(text, style: style, width: width)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var w: Int32 = 0
        var h: Int32 = 0
        pango_layout_get_size(layout, &w, &h)
        return Double(h) / Double(PANGO_SCALE)
    }

    /// Draws `text` wrapped at `width` from `x` (from the left margin),
    /// line after line; a line that does not fit goes on a new page.
    func paragraph(_ text: String, style: TextStyle, x: Double = 0, width: Double? = nil) {
        let width = width ?? (self.width - x)
        let layout = makeLayout(text, style: style, width: width)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        guard let iter = pango_layout_get_iter(layout) else { return }
        defer { pango_layout_iter_free(iter) }
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            let scale = Double(PANGO_SCALE)
            let height = Double(logical.height) / scale
            ensure(height)
            let baseline = Double(pango_layout_iter_get_baseline(iter) - logical.y) / scale
            style.color.set(cr)
            cairo_move_to(cr, left + x + Double(logical.x) / scale, y + baseline)
            pango_cairo_show_layout_line(cr, pango_layout_iter_get_line_readonly(iter))
            y += height
        } while pango_layout_iter_next_line(iter) != 0
        y += style.spaceAfter
    }

    /// Draws `text` in one block at (`x`, `top`) without moving the cursor; its height.
    @discardableResult
    func block(_ text: String, style: TextStyle, x: Double, top: Double, width: Double) -> Double {
        let layout = makeLayout(text, style: style, width: width)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        style.color.set(cr)
        cairo_move_to(cr, left + x, top)
        pango_cairo_show_layout(cr, layout)
        var w: Int32 = 0
        var h: Int32 = 0
        pango_layout_get_size(layout, &w, &h)
        return Double(h) / Double(PANGO_SCALE)
    }

    /// A filled rectangle (page coordinates from the left margin).
    func fill(x: Double, top: Double, width: Double, height: Double, color: DocumentColor) {
        color.set(cr)
        cairo_rectangle(cr, left + x, top, width, height)
        cairo_fill(cr)
    }

    /// A thin rule across the text column at the cursor.
    func rule() {
        cairo_set_source_rgb(cr, 0.75, 0.75, 0.75)
        cairo_set_line_width(cr, 0.5)
        cairo_move_to(cr, left, y)
        cairo_line_to(cr, left + width, y)
        cairo_stroke(cr)
        y += 6
    }
}
