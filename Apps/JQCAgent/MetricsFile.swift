import Foundation
import JQCCore
import ProgramOutput

/// Prometheus text-format metrics, written to a file atomically (a temporary
/// file in the same folder, then a rename) so a scraper never reads half a file.
public struct MetricsFile: Sendable {
    /// One sample: a metric name, its help, its type, and its value.
    public struct Sample: Sendable, Hashable {
        public var name: String
        public var help: String
        public var type: String
        public var value: Double

        public init(_ name: String, _ value: Double, help: String, type: String = "gauge") {
            self.name = name
            self.value = value
            self.help = help
            self.type = type
        }
    }

    public let path: String

    public init(path: String) { self.path = path }

    /// The text exposition format of `samples`.
    public static func render(_ samples: [Sample]) -> String {
        var text = ""
        for sample in samples {
            text += "# HELP \(sample.name) \(sample.help)\n"
            text += "# TYPE \(sample.name) \(sample.type)\n"
            let value =
                sample.value.rounded() == sample.value && abs(sample.value) < 1e15
                ? String(Int64(sample.value)) : String(sample.value)
            text += "\(sample.name) \(value)\n"
        }
        return text
    }

    /// Replaces the file with `samples`, atomically: a failure leaves the previous file as it was.
    public func write(_ samples: [Sample]) throws(AppError) {
        do throws(OutputError) {
            try AtomicFile.replace(path, with: Array(Self.render(samples).utf8))
        } catch {
            throw AppError.failure(.metricsUnwritable, "Cannot write the metrics file '\(path)': \(error.reason).")
        }
    }
}
