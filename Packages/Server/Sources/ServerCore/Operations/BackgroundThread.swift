import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The server's background work (delivering mail and webhooks, making
/// their messages, making scheduled visits) runs on threads of its own at a
/// lower CPU priority than the threads answering requests: on a busy
/// machine a device's sync is answered first, and the deliveries it causes
/// follow a moment later, instead of both slowing down together.
enum BackgroundThread {
    /// How much lower, in `nice` steps (0 is the requests' priority, 19 the lowest).
    static let niceness: Int32 = 10

    /// Starts `work` on a new thread at the background priority.
    static func start(_ work: @escaping @Sendable () -> Void) {
        Thread.detachNewThread {
            lowerPriority()
            work()
        }
    }

    /// Lowers the calling thread's priority: Linux keeps a nice value per
    /// thread, and `who` 0 names the calling one. A refusal leaves it as it
    /// was: the work is the same, only its share of the CPU differs.
    static func lowerPriority() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        #endif
    }

    /// The calling thread's nice value (for tests and diagnostics).
    static func currentNiceness() -> Int32 {
        #if os(Linux)
            errno = 0
            return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #else
            return 0
        #endif
    }
}
