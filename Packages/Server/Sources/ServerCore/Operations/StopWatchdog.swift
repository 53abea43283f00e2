import Foundation
import ProgramOutput

/// A bound on how long stopping may take. libmicrohttpd wakes its threads
/// through its own channel; when writing to it fails (a failing disk, an
/// injected fault) a thread may never wake and the stop would wait forever
/// while the port stays held. Past the bound the process exits with status 1
/// and one line: every accepted report is already committed.
enum StopWatchdog {
    /// Exits the process `seconds` from now unless it has ended by then.
    static func arm(seconds: TimeInterval) {
        let thread = Thread {
            Thread.sleep(forTimeInterval: seconds)
            ProgramExit.immediately(
                "jqc-server: stopping took longer than \(Int(seconds)) s; exiting now. Accepted reports are safe.")
        }
        thread.start()
    }
}
