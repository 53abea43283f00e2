import Foundation
import JQCApp

exit(JQCCommandLine.run(program: .jqc, arguments: Array(CommandLine.arguments.dropFirst())))
