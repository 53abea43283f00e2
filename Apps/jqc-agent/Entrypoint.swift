import Foundation
import JQCAgent

@main
enum JQCAgentMain {
    static func main() async {
        exit(await AgentProgram.run(arguments: Array(CommandLine.arguments.dropFirst())))
    }
}
