import Foundation
import ServerStore

/// An `ExportReader` that reads its next page while the current one is
/// written: a thread of its own asks the store for page N+1 as soon as page
/// N is taken, so the database's work and the rendering overlap (the export
/// waits only for whichever is slower). At most one page waits, so memory
/// holds three pages at most: the one written, the one waiting, the one
/// being read.
///
/// Safety: `inner` is used by the fetching thread only, until `close` has
/// waited for that thread to end; `waiting`, `failure`, `ended` and
/// `stopped` are read and written with `condition` locked.
final class PrefetchingReader: ExportReader, @unchecked Sendable {
    private let inner: any ExportReader
    private let condition = NSCondition()
    private var waiting: [ExportedReport]?
    private var failure: ServerError?
    private var ended = false
    private var stopped = false
    private var running = true
    private var closed = false

    let generation: String
    let lastChange: Int64
    let matching: Int
    let versions: [PublishedVersion]

    init(_ inner: any ExportReader) {
        self.inner = inner
        generation = inner.generation
        lastChange = inner.lastChange
        matching = inner.matching
        versions = inner.versions
        let thread = Thread { [self] in fetch() }
        thread.name = "jqc-export-read"
        thread.start()
    }

    private func fetch() {
        while true {
            condition.lock()
            while waiting != nil && !stopped { condition.wait() }
            let stop = stopped
            condition.unlock()
            if stop { break }
            let page: [ExportedReport]
            var failed: ServerError?
            do throws(ServerError) {
                page = try inner.nextPage()
            } catch {
                page = []
                failed = error
            }
            condition.lock()
            if let failed { failure = failed } else if page.isEmpty { ended = true } else { waiting = page }
            let done = failed != nil || page.isEmpty
            condition.broadcast()
            condition.unlock()
            if done { break }
        }
        condition.lock()
        running = false
        condition.broadcast()
        condition.unlock()
    }

    func nextPage() throws(ServerError) -> [ExportedReport] {
        condition.lock()
        defer { condition.unlock() }
        while waiting == nil && failure == nil && !ended && !stopped { condition.wait() }
        if let page = waiting {
            waiting = nil
            condition.broadcast()
            return page
        }
        if let failure { throw failure }
        return []
    }

    func close() {
        condition.lock()
        guard !closed else {
            condition.unlock()
            return
        }
        closed = true
        stopped = true
        waiting = nil
        condition.broadcast()
        // The fetching thread finishes the page it is reading, then ends; only then is the store's read closed.
        while running { condition.wait() }
        condition.unlock()
        inner.close()
    }
}
