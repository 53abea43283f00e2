import Foundation
import JQCApp

@main
enum JQC {
    static func main() async {
        exit(await JQCCommandLine.run(arguments: Array(CommandLine.arguments.dropFirst())))
    }
}
