import FieldTypes
import Foundation
import Storage
import TestSupport
@testable import JQCApp
import JQCCore

/// The home menu on a demo profile driven by scripted lines, as the
/// dispatcher drives it from a terminal: the lines as input, then end of
/// input; its exit code and everything it wrote (prompts included).
enum ScriptedMenu {
    static func run(_ lines: [String], profile: DemoProfile) async throws -> (code: Int32, output: [String]) {
        let context = AppContext(
            profile: Profile.resolve(home: profile.home, environment: [:]),
            registry: FieldTypeRegistry.builtIn(), style: .plain, json: false,
            stdinIsTerminal: false, environment: [:])
        var input = lines[...]
        var output: [String] = []
        let io = MenuIO(
            readLine: {
                output.append($0)
                return input.popFirst()
            }, write: { output.append($0) })
        let code = try await HomeMenu(context: context, io: io).run()
        return (code, output)
    }
}
