import ServerCore

exit(ServerCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
