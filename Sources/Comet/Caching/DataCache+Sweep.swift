import Dispatch
import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension DataCache {
    /// How old a temporary file must be before a sweep deletes it as left over from a crash
    /// (younger ones may belong to a write in progress in another process), in seconds.
    static let staleTemporaryFileAge: TimeInterval = 60

    /// One file of the cache directory, as a sweep sees it.
    struct DirectoryEntry {
        var name: String
        var size: Int
        /// Modification time in seconds since 1970: the entry's last use.
        var lastUsed: Double
        var isTemporary: Bool
    }

    // MARK: Totals

    /// The total size of the cache files in bytes (headers included), once the changes staged
    /// before this call are on disk (it waits for them). Temporary files do not count.
    public var totalSize: Int {
        queue.sync { directoryEntries().reduce(0) { $1.isTemporary ? $0 : $0 + $1.size } }
    }

    /// The number of cache files, once the changes staged before this call are on disk (it waits
    /// for them). Temporary files do not count.
    public var totalCount: Int {
        queue.sync { directoryEntries().count(where: { !$0.isTemporary }) }
    }

    // MARK: Sweep

    /// Sweeps now and waits for it: deletes stale temporary files and entries unused for longer
    /// than ``maximumAge``, then, if the cache is over
    /// ``sizeLimit``, the least recently used files until it is at most ``trimRatio`` ×
    /// ``sizeLimit``. Sweeps also run by themselves (see ``sweepInterval``).
    public func sweep() {
        queue.sync { performSweep() }
    }

    /// Schedules a sweep `delay` seconds from now, then one every ``sweepInterval``, for as long as
    /// the cache lives and `generation` is current.
    func scheduleSweep(generation: Int, after delay: TimeInterval) {
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self else { return }
            let (current, interval) = self.state.withLock { ($0.sweepGeneration == generation, $0.sweepInterval) }
            guard current else { return }
            self.performSweep()
            self.scheduleSweep(generation: generation, after: interval)
        }
    }

    /// The sweep itself; runs on `queue`.
    func performSweep() {
        dispatchPrecondition(condition: .onQueue(queue))
        let (sizeLimit, trimRatio, maximumAge) = state.withLock { ($0.sizeLimit, $0.trimRatio, $0.maximumAge) }
        let now = Date().timeIntervalSince1970
        var entries: [DirectoryEntry] = []
        var total = 0
        for entry in directoryEntries() {
            if entry.isTemporary {
                if now - entry.lastUsed > Self.staleTemporaryFileAge { unlink(path.path + "/" + entry.name) }
            } else if let maximumAge, now - entry.lastUsed > maximumAge {
                unlink(path.path + "/" + entry.name)
            } else {
                entries.append(entry)
                total += entry.size
            }
        }
        if total > sizeLimit {
            let target = Int(Double(sizeLimit) * trimRatio)
            entries.sort { $0.lastUsed < $1.lastUsed }
            for entry in entries {
                guard total > target else { break }
                if unlink(path.path + "/" + entry.name) == 0 || errno == ENOENT { total -= entry.size }
            }
        }
        state.withLock { $0.estimatedSize = total }
    }

    /// The regular files in the cache directory (empty when the directory is missing).
    func directoryEntries() -> [DirectoryEntry] {
        let directory = path.path
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var entries: [DirectoryEntry] = []
        while let item = readdir(stream) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { bytes in
                String(cString: bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            guard name != ".", name != ".." else { continue }
            var info = stat()
            guard lstat(directory + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let lastUsed = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            entries.append(
                DirectoryEntry(
                    name: name, size: Int(info.st_size), lastUsed: lastUsed,
                    isTemporary: name.hasPrefix(DataCacheFile.temporaryPrefix)))
        }
        return entries
    }
}
