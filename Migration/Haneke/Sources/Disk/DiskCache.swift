import Foundation

/// A directory of files, one per key, kept under ``capacity`` bytes by deleting the least
/// recently used (by modification date, which every fetch touches).
///
/// Writes are atomic (a temporary file renamed over the old one), so a reader never sees a torn
/// file. All file work runs on ``cacheQueue`` (serial, in call order); callbacks arrive on the
/// main queue. Thread-safe.
open class DiskCache: @unchecked Sendable {
    // Safe: `size`, `capacity` and the base directory live behind `lock`; files are only touched
    // on the serial `cacheQueue`; no callback is made while the lock is held.

    /// Where caches made by ``Cache`` live: `<user cache directory>/io.haneke` by default
    /// (`$XDG_CACHE_HOME` or `~/.cache` on Linux). Set it before the first ``Cache`` (or
    /// ``Shared`` cache) is created; tests point it at a temporary directory.
    public static var baseDirectory: URL {
        get { baseLock.withLock { base } }
        set { baseLock.withLock { base = newValue } }
    }
    private static let baseLock = NSLock()
    nonisolated(unsafe) private static var base: URL = {
        let caches =
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return caches.appendingPathComponent(HanekeGlobals.Domain, isDirectory: true)
    }()

    /// ``baseDirectory`` as a path.
    open class func basePath() -> String { baseDirectory.path }

    /// The directory holding the files.
    public let path: String

    /// The serial queue all file work runs on (`sync {}` on it waits for earlier work).
    public let cacheQueue: DispatchQueue

    private let lock = NSLock()
    private var storedSize: UInt64 = 0
    private var storedCapacity: UInt64

    /// The bytes the files take (updated by the cache's own writes and removals).
    open var size: UInt64 { lock.withLock { storedSize } }

    /// The most bytes kept; lowering it deletes least recently used files in the background.
    open var capacity: UInt64 {
        get { lock.withLock { storedCapacity } }
        set {
            lock.withLock { storedCapacity = newValue }
            cacheQueue.async { self.controlCapacity() }
        }
    }

    /// A cache in the directory `path`, created now if missing (before `init` returns, as Haneke
    /// did, so a file written there right away lands). Its size is computed and the capacity
    /// enforced in the background.
    public init(path: String, capacity: UInt64 = UInt64.max) {
        self.path = path
        self.storedCapacity = capacity
        self.cacheQueue = DispatchQueue(label: HanekeGlobals.Domain + "." + (path as NSString).lastPathComponent)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        cacheQueue.async {
            self.calculateSize()
            self.controlCapacity()
        }
    }

    /// Stores the data `getData` returns under `key`, in the background (`getData` runs there; a
    /// `nil` result writes nothing).
    open func setData(_ getData: @autoclosure @escaping () -> Data?, key: String) {
        let getData = Unchecked(getData)
        cacheQueue.async { self.setDataSync(getData.value(), key: key) }
    }

    /// Reads the data of `key` in the background; `success` or `failure` (the read error,
    /// `NSFileReadNoSuchFileError` for a missing key) comes on main. A hit marks the key as
    /// recently used.
    open func fetchData(key: String, failure: ((Error?) -> ())? = nil, success: @escaping (Data) -> ()) {
        let callbacks = Unchecked((failure, success))
        cacheQueue.async {
            let path = self.path(forKey: key)
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                onMain { callbacks.value.1(data) }
                self.touch(path)
            } catch {
                guard let failure = callbacks.value.0 else { return }
                let reported =
                    Self.isMissingFile(error)
                    ? NSError(
                        domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError,
                        userInfo: [NSUnderlyingErrorKey: error])
                    : error as NSError
                onMain { failure(reported) }
            }
        }
    }

    /// Deletes the file of `key` in the background.
    open func removeData(with key: String) {
        cacheQueue.async { self.removeFile(atPath: self.path(forKey: key)) }
    }

    /// Deletes every file in the background; `completion` then comes on main.
    open func removeAllData(_ completion: (() -> ())? = nil) {
        let completion = Unchecked(completion)
        cacheQueue.async {
            let contents = (try? FileManager.default.contentsOfDirectory(atPath: self.path)) ?? []
            for name in contents {
                try? FileManager.default.removeItem(atPath: (self.path as NSString).appendingPathComponent(name))
            }
            self.calculateSize()
            if let completion = completion.value { onMain(completion) }
        }
    }

    /// Marks `key` as recently used; if its file is missing, writes what `getData` returns.
    open func updateAccessDate(_ getData: @autoclosure @escaping () -> Data?, key: String) {
        let getData = Unchecked(getData)
        cacheQueue.async {
            let path = self.path(forKey: key)
            if FileManager.default.fileExists(atPath: path) {
                self.touch(path)
            } else {
                self.setDataSync(getData.value(), key: key)
            }
        }
    }

    /// The file that holds `key`: the escaped key, or its MD5 when the escaped key is too long
    /// for a file name (see the guide for the rule).
    open func path(forKey key: String) -> String {
        (path as NSString).appendingPathComponent(DiskCacheFilename.name(forKey: key))
    }

    // MARK: On cacheQueue

    private func setDataSync(_ data: Data?, key: String) {
        guard let data else { return }
        let path = self.path(forKey: key)
        let previous = fileSize(atPath: path)
        do {
            try FileManager.default.createDirectory(atPath: self.path, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            return
        }
        lock.withLock { storedSize = storedSize - min(storedSize, previous ?? 0) + UInt64(data.count) }
        controlCapacity()
    }

    private func touch(_ path: String) {
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: path)
    }

    private func removeFile(atPath path: String) {
        guard let bytes = fileSize(atPath: path), (try? FileManager.default.removeItem(atPath: path)) != nil else {
            return
        }
        lock.withLock { storedSize -= min(storedSize, bytes) }
    }

    private func fileSize(atPath path: String) -> UInt64? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        return Self.bytes(attributes)
    }

    private static func bytes(_ attributes: [FileAttributeKey: Any]) -> UInt64 {
        (attributes[.size] as? NSNumber)?.uint64Value ?? (attributes[.size] as? UInt64) ?? 0
    }

    private func calculateSize() {
        let total = files().reduce(UInt64(0)) { $0 + $1.size }
        lock.withLock { storedSize = total }
    }

    /// Deletes files, least recently modified first, until the size is within capacity.
    private func controlCapacity() {
        guard size > capacity else { return }
        for file in files().sorted(by: { $0.modified < $1.modified }) {
            removeFile(atPath: file.path)
            if size <= capacity { return }
        }
        // Every file is gone and the count is still over: another cache on this directory
        // deleted files this one counted. The directory is the truth.
        calculateSize()
    }

    private func files() -> [(path: String, size: UInt64, modified: Date)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.compactMap { name in
            let filePath = (path as NSString).appendingPathComponent(name)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: filePath),
                attributes[.type] as? FileAttributeType == .typeRegular
            else { return nil }
            return (filePath, Self.bytes(attributes), attributes[.modificationDate] as? Date ?? .distantPast)
        }
    }

    private static func isMissingFile(_ error: Error) -> Bool {
        let error = error as NSError
        if error.domain == NSCocoaErrorDomain
            && (error.code == NSFileReadNoSuchFileError || error.code == NSFileNoSuchFileError)
        {
            return true
        }
        if error.domain == NSPOSIXErrorDomain && error.code == Int(ENOENT) { return true }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? Error { return isMissingFile(underlying) }
        return false
    }
}
