import Models
import Testing

/// The table of an action's moves, as the server and the console judge a
/// request by it (contract 1.2).
@Suite("The moves of a corrective action")
struct ActionMoveTests {
    @Test("each row allows the people it names and forbids everyone else")
    func rows() {
        #expect(ActionMove.judge(from: .open, to: .inProgress, caller: [.assignee]) == .allowed)
        #expect(ActionMove.judge(from: .inProgress, to: .done, caller: [.supervisors]) == .allowed)
        #expect(ActionMove.judge(from: .done, to: .verified, caller: [.reportInspector]) == .allowed)
        #expect(ActionMove.judge(from: .done, to: .verified, caller: [.assignee]) == .forbidden)
        #expect(ActionMove.judge(from: .open, to: .cancelled, caller: [.assignee, .reportInspector]) == .forbidden)
        #expect(ActionMove.judge(from: .open, to: .done, caller: []) == .forbidden)
    }

    @Test(
        "with no row from the current state: 409 when a row ending in the state asked names the caller, else 403; the same state has no row"
    )
    func noRow() {
        #expect(ActionMove.judge(from: .verified, to: .open, caller: [.supervisors]) == .notFromHere)
        #expect(ActionMove.judge(from: .done, to: .done, caller: [.assignee]) == .notFromHere)
        #expect(ActionMove.judge(from: .open, to: .open, caller: [.supervisors]) == .notFromHere)
        #expect(ActionMove.judge(from: .open, to: .verified, caller: [.reportInspector]) == .notFromHere)
        #expect(ActionMove.judge(from: .cancelled, to: .verified, caller: [.assignee]) == .forbidden)
        #expect(ActionMove.judge(from: .done, to: .cancelled, caller: [.assignee]) == .forbidden)
    }

    @Test("verified and cancelled are final; states read as typed")
    func finalStates() {
        #expect(ActionState.allCases.filter(\.isFinal) == [.verified, .cancelled])
        for state in ActionState.allCases where state.isFinal {
            #expect(!ActionMove.table.contains { $0.from == state })
        }
        #expect(ActionState(typed: " In-Progress ") == .inProgress)
        #expect(ActionState(typed: "finished") == nil)
    }
}
