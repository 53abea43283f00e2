import Foundation
import JQCAgent

exit(AgentProgram.run(arguments: Array(CommandLine.arguments.dropFirst())))
