import ArgumentParser
import Comet
import Foundation

/// `comet cache stats|clear`: inspects or empties the disk cache `comet fetch` uses (or any
/// Comet disk cache directory, with `--path`).
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or clear the disk cache.",
        subcommands: [Stats.self, Clear.self],
        defaultSubcommand: Stats.self
    )

    /// The options both subcommands take.
    struct Location: ParsableArguments {
        @Option(
            help:
                "The cache directory. Default: the cache of `comet fetch` ($XDG_CACHE_HOME or ~/.cache, then com.comet.cli)."
        )
        var path: String?

        /// The directory, or `nil` when there is none yet.
        func directory() throws -> URL {
            if let path { return URL(fileURLWithPath: path).standardizedFileURL }
            return try DataCache(name: FetchCommand.cacheName).path
        }
    }

    /// `comet cache stats`.
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the size, entry count, and oldest and newest entries.")

        @OptionGroup var location: Location

        @Flag(help: "Print JSON.")
        var json = false

        func run() throws {
            let directory = try location.directory()
            guard FileManager.default.fileExists(atPath: directory.path) else {
                throw ValidationError("There is no cache at \(directory.path).")
            }
            let cache = DataCache(path: directory)
            let entries = CacheInspector(directory: directory).entries()
            let stats = CacheStats(
                path: directory.path, totalSize: cache.totalSize, totalCount: cache.totalCount,
                sizeLimit: cache.sizeLimit,
                oldest: entries.min { $0.lastUsed < $1.lastUsed },
                newest: entries.max { $0.lastUsed < $1.lastUsed })
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                encoder.dateEncodingStrategy = .iso8601
                print(String(decoding: try encoder.encode(stats), as: UTF8.self))
            } else {
                print(stats.text())
            }
        }
    }

    /// `comet cache clear`.
    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove every entry.")

        @OptionGroup var location: Location

        func run() throws {
            let directory = try location.directory()
            guard FileManager.default.fileExists(atPath: directory.path) else {
                print("There is no cache at \(directory.path); nothing to clear.")
                return
            }
            let cache = DataCache(path: directory)
            let count = cache.totalCount, size = cache.totalSize
            cache.removeAll()
            cache.flush()
            print("Removed \(count) entries (\(Format.bytes(size))) from \(directory.path).")
        }
    }
}

/// What `comet cache stats` reports.
struct CacheStats: Codable {
    var path: String
    var totalSize: Int
    var totalCount: Int
    var sizeLimit: Int
    var oldest: CacheInspector.Entry?
    var newest: CacheInspector.Entry?

    /// The report for people.
    func text() -> String {
        var lines = [
            "disk cache  \(path)",
            "entries     \(totalCount)",
            "size        \(Format.bytes(totalSize)) (limit \(Format.bytes(sizeLimit)))",
        ]
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        for (label, entry) in [("oldest", oldest), ("newest", newest)] {
            guard let entry else { continue }
            lines.append(
                label.padded(12) + "\(formatter.string(from: entry.lastUsed))  \(entry.key ?? entry.file) "
                    + "(\(Format.bytes(entry.size)))")
        }
        return lines.joined(separator: "\n")
    }
}
