import Locking
import Logging

/// Keeps every log record it is given, for tests that read what was logged.
struct CapturingLogHandler: LogHandler {
    struct Record: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]
    }

    final class Records: Sendable {
        private let storage = Locked<[Record]>([])
        func append(_ record: Record) { storage.withLock { $0.append(record) } }
        var all: [Record] { storage.withLock { $0 } }
    }

    let records: Records
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(
        level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String,
        function: String, line: UInt
    ) {
        let merged = self.metadata.merging(metadata ?? [:]) { $1 }
        records.append(Record(level: level, message: message.description, metadata: merged.mapValues { "\($0)" }))
    }
}
