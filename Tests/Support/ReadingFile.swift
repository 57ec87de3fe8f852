import Foundation

/// A temporary file a test writes kernel-style readings into (memory pressure, cgroup events)
/// for code that would read them from /proc or /sys. Removed when released.
public final class ReadingFile: Sendable {
    public let url = FileManager.default.temporaryDirectory.appendingPathComponent("comet-reading-\(UUID().uuidString)")

    public init() {}

    public func write(_ text: String) throws { try Data(text.utf8).write(to: url) }

    /// A pressure-stall reading (the format of /proc/pressure/memory) with these `avg10` values.
    public static func stall(some: Double, full: Double) -> String {
        "some avg10=\(some) avg60=0.00 avg300=0.00 total=100\nfull avg10=\(full) avg60=0.00 avg300=0.00 total=50\n"
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
