import Foundation

/// Facts about the memory available to this process, for default cache limits.
enum SystemMemory {
    /// The memory limit of the process's cgroup in bytes, or `nil` when there is none (or it
    /// cannot be read). Reads cgroup v2 (`memory.max` of the process's own group, then the root)
    /// and cgroup v1 (`memory.limit_in_bytes`); "max" and v1's huge "unlimited" values mean none.
    static func cgroupLimit() -> UInt64? {
        var candidates: [String] = []
        if let group = ownCgroupV2Path() {
            candidates.append("/sys/fs/cgroup" + group + "/memory.max")
        }
        candidates.append("/sys/fs/cgroup/memory.max")
        candidates.append("/sys/fs/cgroup/memory/memory.limit_in_bytes")
        var lowest: UInt64?
        for path in candidates {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            // "max" (v2) and v1's page-rounded Int64.max both mean "no limit".
            guard let bytes = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)),
                bytes < UInt64(1) << 62
            else { continue }
            lowest = min(lowest ?? bytes, bytes)
        }
        return lowest
    }

    /// The directory of the process's cgroup v2 (the root group's when it is in the root), or
    /// `nil` without cgroup v2.
    static func ownCgroupV2Directory() -> URL? {
        guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("0::") })
        else { return nil }
        let path = String(line.dropFirst(3))
        return URL(fileURLWithPath: "/sys/fs/cgroup" + (path == "/" ? "" : path))
    }

    /// The process's cgroup v2 path ("0::/some/group" in /proc/self/cgroup), if any.
    private static func ownCgroupV2Path() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("0::") {
            let path = String(line.dropFirst(3))
            return path == "/" ? nil : path
        }
        return nil
    }
}
