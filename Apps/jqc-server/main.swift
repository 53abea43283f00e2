import ServerCore
import ServerSQLite

exit(ServerCommand.run(arguments: Array(CommandLine.arguments.dropFirst()), storage: SQLiteServerStorage.opener))
