import JQCServer

exit(ServerCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
