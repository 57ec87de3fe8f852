import Locking
import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A disk cache of data: one file per key, LRU by access, bounded by a periodic sweep.
///
/// ```swift
/// let cache = try DataCache(name: "com.example.gallery")   // ~/.cache/com.example.gallery
/// cache.storeData(data, for: "https://example.com/a.jpg")
/// let data = cache["https://example.com/a.jpg"]
/// ```
///
/// - Files: each key is stored in one file named by ``sha256Filename(_:)`` of the key (or an
///   injected `filenameGenerator`). The file starts with a header holding the key and the data
///   length; a read returns data only when the stored key equals the requested key and the file
///   has exactly the length its header promises. So a hash collision (or a generator that maps
///   two keys to one name) never returns another key's data, and a truncated file is treated as
///   absent and deleted.
/// - Writes: ``storeData(_:for:)`` and ``removeData(for:)`` are staged in memory and return at
///   once; a serial background queue applies them in order. A read sees staged changes
///   immediately. Each file is written to a temporary file in the cache directory and renamed
///   over the final name, so a reader (in this or another process) never sees a torn file. No
///   `fsync`: after a power loss a file may be short, which the length check rejects.
///   ``flush()`` waits until everything staged so far is on disk.
/// - LRU: a read that hits sets the file's modification time to now; the sweep removes the
///   least recently used files until the total size is at most ``trimRatio`` × ``sizeLimit``.
/// - Sweep: once in the background right after `init` (so short-lived command-line processes
///   keep the cache bounded too), then every ``sweepInterval``, and early when this instance's
///   writes push the size over ``sizeLimit``. It also deletes temporary files left behind by a
///   crash (older than a minute).
/// - Robustness: if the directory is deleted while the cache runs, the next write recreates it.
///
/// Thread-safe: the staging table sits behind a lock held only for dictionary updates; file I/O
/// for writes, removals and sweeps runs on the cache's serial queue, never on the caller's
/// thread. Reads of flushed entries do their (small) file I/O on the caller's thread, as Nuke does.
public final class DataCache: DataCaching, Sendable {
    /// The directory that holds the cache files.
    public let path: URL

    /// Turns a key into a file name; `nil` means "do not cache this key".
    let filenameGenerator: @Sendable (String) -> String?

    private let directory: String
    let queue: DispatchQueue
    let state: Locked<State>

    struct State {
        enum Change {
            case add(Data)
            case remove
        }

        /// Changes not yet applied to disk, with the id of the queue block that applies each.
        var staging: [String: (change: Change, id: UInt64)] = [:]
        var nextID: UInt64 = 0
        /// `removeAll()` calls whose deletion has not run yet: disk entries count as gone.
        var pendingRemoveAll = 0
        var sizeLimit: Int
        var trimRatio = 0.7
        var maximumAge: TimeInterval?
        var sweepInterval: TimeInterval = 30
        /// Bumped when the sweep schedule changes; an older scheduled sweep then stops.
        var sweepGeneration = 0
        /// The directory's size at the last sweep plus what was written since (an upper bound).
        var estimatedSize = 0

        mutating func stage(_ change: Change, for key: String) -> UInt64 {
            nextID &+= 1
            staging[key] = (change, nextID)
            return nextID
        }
    }

    /// A cache in `name` under the user's cache directory: `$XDG_CACHE_HOME/name`, or
    /// `~/.cache/name` when `XDG_CACHE_HOME` is unset (or, failing both, the temporary directory).
    /// Creates the directory. Files are named by ``sha256Filename(_:)``.
    /// - Throws: when `name` is empty or `..`, or the directory cannot be created.
    public convenience init(name: String) throws {
        guard !name.isEmpty, !name.split(separator: "/").contains("..") else {
            throw POSIXError(.EINVAL)
        }
        let url = DataCache.userCachesDirectory.appendingPathComponent(name, isDirectory: true)
        try DataCacheFile.createDirectory(url.path)
        self.init(path: url)
    }

    /// A cache in the directory at `path` (created now if possible, and again on a later write
    /// if it is missing then).
    /// - Parameters:
    ///   - path: the directory.
    ///   - filenameGenerator: names the file of a key; ``sha256Filename(_:)`` by default.
    ///     A name must be one path component not starting with `.comet-tmp-`; a key for which the
    ///     generator returns `nil` or an invalid name is never stored.
    public init(path: URL, filenameGenerator: @escaping @Sendable (String) -> String? = DataCache.sha256Filename) {
        self.path = path
        self.directory = path.path
        self.filenameGenerator = filenameGenerator
        self.queue = DispatchQueue(label: "Comet.DataCache", qos: .utility)
        self.state = Locked(State(sizeLimit: 150 << 20))
        try? DataCacheFile.createDirectory(directory)
        scheduleSweep(generation: 0, after: 0)
    }

    /// The user's cache directory, where ``init(name:)`` puts its caches: `$XDG_CACHE_HOME`
    /// when it is an absolute path, else `~/.cache`, else the temporary directory. Read from the
    /// environment at each call; thread-safe.
    public static var userCachesDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true)
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache", isDirectory: true)
        }
        return FileManager.default.temporaryDirectory
    }

    /// The default file name of a key: the SHA-256 of its UTF-8 bytes, as 64 lowercase hex digits.
    @Sendable
    public static func sha256Filename(_ key: String) -> String? {
        SHA256.hexDigest(key.utf8)
    }

    // MARK: Settings

    /// The size the sweep keeps the cache under, in bytes (file sizes, headers included);
    /// 150 MiB by default, as Nuke.
    public var sizeLimit: Int {
        get { state.withLock { $0.sizeLimit } }
        set { state.withLock { $0.sizeLimit = max(0, newValue) } }
    }

    /// The share of ``sizeLimit`` a sweep trims down to once the limit is exceeded; 0.7 by default
    /// (as Nuke), so a sweep frees a useful amount instead of one file at a time.
    public var trimRatio: Double {
        get { state.withLock { $0.trimRatio } }
        set { state.withLock { $0.trimRatio = min(1, max(0, newValue)) } }
    }

    /// How long an entry may go unused (not written nor read) before a sweep deletes it, in
    /// seconds; `nil` (the default) for no limit. Swept like ``sizeLimit``: an entry past its age
    /// can still be read until the next sweep.
    public var maximumAge: TimeInterval? {
        get { state.withLock { $0.maximumAge } }
        set { state.withLock { $0.maximumAge = newValue.map { max(0, $0) } } }
    }

    /// The time between two background sweeps, in seconds; 30 by default. Setting it restarts the
    /// schedule: the next sweep comes one new interval from now.
    public var sweepInterval: TimeInterval {
        get { state.withLock { $0.sweepInterval } }
        set {
            let generation = state.withLock { state in
                state.sweepInterval = max(0.001, newValue)
                state.sweepGeneration += 1
                return state.sweepGeneration
            }
            scheduleSweep(generation: generation, after: max(0.001, newValue))
        }
    }

    // MARK: Reading

    /// The data stored for `key`, or `nil`. Sees staged writes at once. A hit on disk marks the
    /// file as recently used. A damaged file reads as `nil` and is deleted in the background.
    public subscript(key: String) -> Data? {
        get { cachedData(for: key) }
        set {
            if let newValue { storeData(newValue, for: key) } else { removeData(for: key) }
        }
    }

    /// The data stored for `key`, or `nil` (see ``subscript(_:)``).
    public func cachedData(for key: String) -> Data? {
        switch stagedState(for: key) {
        case let .staged(data): return data
        case .removed: return nil
        case .onDisk: break
        }
        guard let filePath = filePath(for: key) else { return nil }
        switch DataCacheFile.read(key: key, at: filePath, touch: true) {
        case let .hit(data):
            return data
        case .absent, .otherKey:
            return nil
        case let .corrupt(identity):
            queue.async { DataCacheFile.remove(filePath, ifStill: identity) }
            return nil
        }
    }

    /// Whether data is stored for `key`: a staged write, or a file whose header names `key`.
    /// Reads only the file's header and does not mark it as used.
    public func containsData(for key: String) -> Bool {
        switch stagedState(for: key) {
        case .staged: return true
        case .removed: return false
        case .onDisk: break
        }
        guard let filePath = filePath(for: key) else { return false }
        if case .entry(forKey: true) = DataCacheFile.inspect(filePath, key: key) { return true }
        return false
    }

    private enum StagedState {
        case staged(Data)
        case removed
        case onDisk
    }

    private func stagedState(for key: String) -> StagedState {
        state.withLock { state in
            switch state.staging[key]?.change {
            case let .add(data)?: .staged(data)
            case .remove?: .removed
            case nil: state.pendingRemoveAll > 0 ? .removed : .onDisk
            }
        }
    }

    // MARK: Writing

    /// Stores `data` for `key`: staged now (readable at once), written to disk in the background.
    public func storeData(_ data: Data, for key: String) {
        guard filePath(for: key) != nil else { return }
        let id = state.withLock { $0.stage(.add(data), for: key) }
        queue.async { self.applyStagedChange(for: key, id: id) }
    }

    /// Removes the data for `key`: at once for readers, from disk in the background. A file
    /// holding another key (a filename collision) is left alone.
    public func removeData(for key: String) {
        guard filePath(for: key) != nil else { return }
        let id = state.withLock { $0.stage(.remove, for: key) }
        queue.async { self.applyStagedChange(for: key, id: id) }
    }

    /// Removes every entry: at once for readers, from disk in the background (the directory
    /// itself stays). Writes made after this call are kept.
    public func removeAll() {
        state.withLock { state in
            state.staging.removeAll()
            state.pendingRemoveAll += 1
        }
        queue.async {
            for entry in self.directoryEntries() where !entry.isTemporary {
                unlink(self.directory + "/" + entry.name)
            }
            self.state.withLock { state in
                state.pendingRemoveAll -= 1
                state.estimatedSize = 0
            }
        }
    }

    /// Blocks until every change staged before this call is on disk. Do not call it from a
    /// callback of this cache's queue.
    public func flush() {
        queue.sync {}
    }

    /// Blocks until the change staged for `key` (and every change staged before it) is on disk.
    public func flush(for key: String) {
        queue.sync {}
    }

    /// Applies the change staged for `key` if it is still the one this block was enqueued for
    /// (a later store or removal of the same key has its own, later block; `removeAll` drops it).
    private func applyStagedChange(for key: String, id: UInt64) {
        let change: State.Change? = state.withLock { state in
            guard let staged = state.staging[key], staged.id == id else { return nil }
            return staged.change
        }
        guard let change, let filename = filename(for: key) else { return }
        let filePath = directory + "/" + filename
        var written = 0
        switch change {
        case let .add(data):
            do {
                try DataCacheFile.store(data, key: key, directory: directory, filename: filename)
                written = DataCacheFile.headerSize + key.utf8.count + data.count
            } catch {
                // Nothing partial remains (the temporary file is removed); the entry is just not cached.
            }
        case .remove:
            switch DataCacheFile.inspect(filePath, key: key) {
            case .entry(forKey: true), .corrupt: unlink(filePath)
            case .entry(forKey: false), .absent: break  // another key's file stays
            }
        }
        let needsSweep = state.withLock { state in
            if state.staging[key]?.id == id { state.staging[key] = nil }
            state.estimatedSize += written
            return state.estimatedSize > state.sizeLimit
        }
        if needsSweep { performSweep() }
    }

    // MARK: Names

    /// The name of `key`'s file in ``path``, or `nil` when the key cannot be cached: an empty
    /// key (stores and removals under it are ignored, as in Nuke) or one the filename generator
    /// gives no valid name. Any thread.
    public func filename(for key: String) -> String? {
        guard !key.isEmpty, let name = filenameGenerator(key), DataCacheFile.isValidFilename(name) else {
            return nil
        }
        return name
    }

    /// The URL of `key`'s file (which may not exist yet, or any more), or `nil` when the key
    /// cannot be cached (see ``filename(for:)``). Any thread.
    public func url(for key: String) -> URL? {
        filePath(for: key).map { URL(fileURLWithPath: $0) }
    }

    /// The path of `key`'s file, or `nil` when the key cannot be cached.
    func filePath(for key: String) -> String? {
        filename(for: key).map { directory + "/" + $0 }
    }
}
