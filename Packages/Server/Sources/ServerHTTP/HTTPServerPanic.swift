import Foundation
import ProgramOutput
internal import CMicroHTTPD

/// What happens when libmicrohttpd meets an error it cannot go on from — a
/// failed write to its own inter-thread channel, say, on a failing disk or
/// under fault injection — instead of its default `abort()`: one line on
/// stderr and exit status 1, at once. Every accepted report is already
/// committed, so a supervisor (systemd, a load balancer's health check) can
/// start the server again with nothing lost; an abort would have started the
/// runtime's crash report and left the port held while it ran.
public enum HTTPServerPanic {
    /// Installs the handler; call before the first daemon starts.
    public static func install() {
        MHD_set_panic_func(handler, nil)
    }

    private static let handler: MHD_PanicCallback = { _, file, line, reason in
        let place = file.map { String(cString: $0) } ?? "libmicrohttpd"
        let why =
            reason.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
            ?? "an unrecoverable error"
        ProgramExit.immediately(
            "jqc-server: the HTTP layer stopped (\(why) at \(place):\(line)); exiting. Accepted reports are safe; start the server again."
        )
    }
}
