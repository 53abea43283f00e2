import Foundation
@testable import ServerCore
@testable import ServerStore
import Testing

/// The exports that may stream at once: four in all, at most two of them one person's.
@Suite("Security trial: export slots per user")
struct ExportSlotTests {
    @Test("one supervisor holds at most two export slots; the others stay for everyone else")
    func exportSlotsPerUser() throws {
        let slots = ExportSlots(limit: 4)
        try slots.take(for: "U-greedy")
        try slots.take(for: "U-greedy")
        #expect(throws: ServerError.self) { try slots.take(for: "U-greedy") }
        do {
            try slots.take(for: "U-greedy")
            Issue.record("a third slot was given to one user")
        } catch {
            #expect(error.status == 503)
            #expect(error.retryAfter != nil)
            #expect(error.message.contains("2 exports of yours"), "\(error.message)")
        }
        try slots.take(for: "U-other")
        try slots.take(for: "U-other")
        #expect(throws: ServerError.self) { try slots.take(for: "U-third") }
        slots.give(for: "U-greedy")
        try slots.take(for: "U-third")
        #expect(throws: ServerError.self) { try slots.take(for: "U-greedy") }
        slots.give(for: "U-other")
        try slots.take(for: "U-greedy")
    }
}
