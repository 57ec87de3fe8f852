import Foundation

/// The process's resident memory as the kernel counts it (`/proc/self/status`), and its peak
/// since the last ``resetPeak()``: a figure's "peak above the process baseline" is the peak
/// during a batch minus the resident memory just before it.
public enum ResidentMemory {
    /// Resident memory now, in bytes (`VmRSS`); 0 when unreadable.
    public static var current: Int { field("VmRSS") }

    /// The highest resident memory since the process started or since ``resetPeak()``, in bytes
    /// (`VmHWM`); 0 when unreadable.
    public static var peak: Int { field("VmHWM") }

    /// Sets the peak mark to the current resident memory (writes 5 to `/proc/self/clear_refs`,
    /// Linux 4.0 and later) and returns the resident memory it starts from; `nil` when the
    /// kernel does not allow it.
    public static func resetPeak() -> Int? {
        guard let file = fopen("/proc/self/clear_refs", "w") else { return nil }
        let written = fputs("5", file)
        fclose(file)
        return written >= 0 ? current : nil
    }

    private static func field(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let kilobytes =
                line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap {
                    Int($0)
                } ?? 0
            return kilobytes * 1024
        }
        return 0
    }
}
