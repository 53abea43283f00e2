import Foundation

/// Blocking work (waiting for a process to end, polling) run on a thread of
/// its own while the calling test awaits its result.
///
/// Swift's tasks share one thread a core, two on a 2-core machine, among
/// every test running at once. Work that blocks one of them for long holds
/// back the other tests' awaits, and the times they measure, until it ends.
public enum OwnThread {
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }

    public static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }
}
