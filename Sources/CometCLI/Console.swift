import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where the tool writes: standard output or standard error, with or without a terminal.
///
/// Writes go straight to the file descriptor (no buffering), so progress lines and results
/// appear in order even when the process is killed.
struct Console: Sendable {
    /// The file descriptor written to.
    let fileDescriptor: Int32

    /// Standard output.
    static let standardOutput = Console(fileDescriptor: STDOUT_FILENO)
    /// Standard error.
    static let standardError = Console(fileDescriptor: STDERR_FILENO)

    /// `true` when the descriptor is a terminal (`isatty`) and `TERM` is not `dumb`.
    var isTerminal: Bool {
        isatty(fileDescriptor) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// `true` when the terminal says it draws 24-bit colour (`COLORTERM=truecolor` or `24bit`).
    var supportsTrueColor: Bool {
        guard isTerminal else { return false }
        let value = ProcessInfo.processInfo.environment["COLORTERM"]?.lowercased() ?? ""
        return value.contains("truecolor") || value.contains("24bit")
    }

    /// The terminal's width in columns (80 when unknown).
    var columns: Int {
        var size = winsize()
        if ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let value = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), value > 0 { return value }
        return 80
    }

    /// Writes `text` as is.
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written <= 0 {
                if written < 0 && errno == EINTR { continue }
                return
            }
            offset += written
        }
    }

    /// Writes `text` and a newline.
    func line(_ text: String = "") {
        write(text + "\n")
    }
}

/// Formats numbers for people: byte counts, durations.
enum Format {
    /// `1.5 MB`, `312 KB`, `87 B` (decimal units).
    static func bytes(_ count: Int) -> String {
        let value = Double(count)
        if value >= 1e9 { return String(format: "%.2f GB", value / 1e9) }
        if value >= 1e6 { return String(format: "%.1f MB", value / 1e6) }
        if value >= 1e3 { return String(format: "%.0f KB", value / 1e3) }
        return "\(count) B"
    }

    /// `1.24 s` or `87 ms`.
    static func duration(_ seconds: Double) -> String {
        seconds >= 1 ? String(format: "%.2f s", seconds) : String(format: "%.0f ms", seconds * 1000)
    }
}

/// A monotonic clock reading, for wall times.
struct Stopwatch: Sendable {
    private let start = ContinuousClock.now

    /// Seconds since the stopwatch was created.
    var elapsed: Double {
        let duration = ContinuousClock.now - start
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
