// jqc-store-writer: saves answers into a store from its own process, the
// second writer of the two-process store tests and the reliability tools.
import ArgumentParsing
import Foundation
import Models
import ProgramOutput
import Storage

let usage = "usage: jqc-store-writer --store PATH --report UUID --count N [--field-prefix P]"

/// Fails with one line on stderr and the given exit code.
func fail(_ message: String, code: Int32) -> Never {
    OutputChannel.standardError.write("jqc-store-writer: \(message)\n")
    exit(code)
}

/// The writer's options, each declared once and read back through its declaration.
enum Writer {
    static let store = Option("store", "PATH", help: "the store file (made if absent)")
    static let report = Option(
        "report", "UUID", help: "the report the answers go to (made if absent)",
        as: .checked({ UUID(uuidString: $0) }, otherwise: { _, label in "'\(label)' must be a UUID; \(usage)" }))
    static let count = Option(
        "count", "N", help: "how many answers to save",
        as: .whole(in: 0...Int.max, otherwise: { _, label in "'\(label)' must be a whole number, 0 or more; \(usage)" })
    )
    static let fieldPrefix = Option("field-prefix", "P", default: "f", help: "the field ids' prefix", as: .text)
    static let help = Flag("help", short: "h", help: "show this line")
    static let spec = CommandSpec(
        "jqc-store-writer", summary: "saves answers into a store",
        options: [store.spec, report.spec, count.spec, fieldPrefix.spec])
}

let path: String
let reportID: UUID
let count: Int
let prefix: String
do throws(UsageError) {
    let parsed = try ArgumentParser(globalOptions: [Writer.help.spec], program: "jqc-store-writer").parse(
        Array(CommandLine.arguments.dropFirst()), for: Writer.spec)
    if parsed[Writer.help] {
        OutputChannel.standardOutput.line(usage)
        exit(0)
    }
    guard let store = try parsed[Writer.store] else { fail("'--store' is required; \(usage)", code: 2) }
    guard let report = try parsed[Writer.report] else { fail("'--report' must be a UUID; \(usage)", code: 2) }
    guard let answers = try parsed[Writer.count] else {
        fail("'--count' must be a whole number, 0 or more; \(usage)", code: 2)
    }
    (path, reportID, count, prefix) = (store, report, answers, try parsed[Writer.fieldPrefix])
} catch {
    fail(error.message, code: 2)
}

do {
    let store = try LocalStore.open(at: path)
    if try store.report(reportID) == nil {
        do {
            try store.createReport(localID: reportID, templateID: "store-writer", facilityID: "store-writer")
        } catch  where error.code == .notAllowed {
            // Another writer created it first: that is the report we want.
        }
    }
    for index in stride(from: 1, through: count, by: 1) {
        try store.saveAnswer(reportID, field: FieldID("\(prefix)\(index)"), value: .integer(Int64(index)))
    }
    OutputChannel.standardOutput.line("saved \(count) answers to report \(reportID.uuidString) in \(path)")
} catch {
    fail(error.message, code: 1)
}
