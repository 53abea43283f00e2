import Foundation
import JQCApp

exit(JQCCommandLine.run(program: .agent, arguments: Array(CommandLine.arguments.dropFirst())))
