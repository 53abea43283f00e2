import Foundation
import JQCApp

exit(JQCCommandLine.run(arguments: Array(CommandLine.arguments.dropFirst())))
