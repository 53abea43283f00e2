// jqc-store-writer: saves answers into a store from its own process, the
// second writer of the two-process store tests and the reliability tools.
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

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    if flag == "--help" || flag == "-h" {
        OutputChannel.standardOutput.line(usage)
        exit(0)
    }
    guard ["--store", "--report", "--count", "--field-prefix"].contains(flag) else {
        fail("unknown option '\(flag)'; \(usage)", code: 2)
    }
    guard let value = arguments.popFirst() else { fail("'\(flag)' needs a value; \(usage)", code: 2) }
    options[flag] = value
}
guard let path = options["--store"] else { fail("'--store' is required; \(usage)", code: 2) }
guard let reportID = options["--report"].flatMap(UUID.init(uuidString:)) else {
    fail("'--report' must be a UUID; \(usage)", code: 2)
}
guard let count = options["--count"].flatMap(Int.init), count >= 0 else {
    fail("'--count' must be a whole number, 0 or more; \(usage)", code: 2)
}
let prefix = options["--field-prefix"] ?? "f"

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
