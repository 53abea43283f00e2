import Foundation
import Synchronization

/// Injects the faults of the `--fault-*` flags, from a seeded random
/// sequence so a test run can be repeated exactly.
final class FaultInjector: Sendable {
    /// What to do to a request before it is handled.
    enum Fault: Equatable {
        /// Close the connection without a response.
        case drop
        /// Answer 503 with `Retry-After`.
        case unavailable
    }

    private let rate: Double
    private let dropRate: Double
    private let afterAcceptRate: Double
    private let random: Mutex<SplitMix64>

    init(rate: Double, drop: Double, afterAccept: Double, seed: UInt64?) {
        self.rate = rate
        self.dropRate = drop
        self.afterAcceptRate = afterAccept
        random = Mutex(SplitMix64(seed: seed ?? UInt64.random(in: 0...UInt64.max)))
    }

    /// Whether any fault is configured at all.
    var isActive: Bool { rate > 0 || dropRate > 0 || afterAcceptRate > 0 }

    /// The fault for the next request, if it gets one.
    func beforeHandling() -> Fault? {
        guard rate > 0 || dropRate > 0 else { return nil }
        let roll = next()
        if roll < dropRate { return .drop }
        if roll < dropRate + rate { return .unavailable }
        return nil
    }

    /// Whether a sync batch, already stored, should go unanswered.
    func dropAfterAccept() -> Bool {
        afterAcceptRate > 0 && next() < afterAcceptRate
    }

    private func next() -> Double {
        random.withLock { $0.nextUnit() }
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64).
struct SplitMix64: Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in [0, 1).
    mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
