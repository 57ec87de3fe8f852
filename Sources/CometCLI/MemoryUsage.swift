import Foundation

/// The process's memory use, from `/proc/self/status` (Linux).
enum MemoryUsage {
    /// The peak resident set size (`VmHWM`) in bytes, or `nil` when unavailable.
    static var peakResidentBytes: Int? { field("VmHWM") }

    /// The current resident set size (`VmRSS`) in bytes, or `nil` when unavailable.
    static var residentBytes: Int? { field("VmRSS") }

    /// Resets the peak (`VmHWM`) to the current resident size by writing `5` to
    /// `/proc/self/clear_refs`; returns whether the kernel accepted it.
    @discardableResult
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }

    private static func field(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let number = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap
            { Int($0) }
            return number.map { $0 * 1024 }  // the kernel reports kB
        }
        return nil
    }
}
