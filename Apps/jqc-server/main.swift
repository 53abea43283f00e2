import Foundation
import ServerCore
import ServerPostgres
import ServerSQLite
import ServerStore

let stores = StorageOpener(
    file: { path, settings throws(ServerError) in try SQLiteServerStorage.open(path: path, settings: settings) },
    postgres: { url, settings throws(ServerError) in try PostgresServerStorage.open(url: url, settings: settings) })
ServerCommand.main(arguments: Array(CommandLine.arguments.dropFirst()), storage: stores)
