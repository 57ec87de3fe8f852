import Comet
import Foundation

/// A two-level cache (memory, then an LRU directory on disk) of values of `T`, one pair of
/// levels per ``Format``; every cache starts with the ``HanekeGlobals/Cache/OriginalFormatName``
/// format (no transform, unlimited disk).
///
/// Threading, as in Haneke: an unknown format fails synchronously (-101) and a memory hit succeeds
/// synchronously on the calling thread; `set` with the original format of a non-image value calls
/// back synchronously; everything else (transforms, disk reads, fetchers) runs in the background
/// and calls back on the main queue (a Linux program needs `dispatchMain()` or a run loop).
/// Thread-safe.
open class Cache<T: DataConvertible>: @unchecked Sendable where T.Result == T, T: DataRepresentable {
    // Safe: `formats` lives behind `lock`, which is never held while user code (transforms,
    // callbacks, conversions) runs; the levels are thread-safe themselves.

    /// The cache's name (its directory under ``DiskCache/baseDirectory``).
    public let name: String

    /// `<base directory>/<name>`: each format has a directory below it.
    public let cachePath: String

    private typealias Level = (format: Format<T>, memory: MemoryCache<T>, disk: DiskCache)
    private let lock = NSLock()
    private var formats: [String: Level] = [:]

    /// A cache named `name` under ``DiskCache/baseDirectory`` (read now), with the original format.
    public init(name: String) {
        self.name = name
        self.cachePath = DiskCache.baseDirectory.appendingPathComponent(name, isDirectory: true).path
        addFormat(Format<T>(name: HanekeGlobals.Cache.OriginalFormatName))
        MemoryPressureMonitor.shared.register(self)
    }

    /// Adds (or replaces) a format with its own memory level and a disk level of
    /// `format.diskCapacity` bytes in `<cachePath>/<format name>`.
    open func addFormat(_ format: Format<T>) {
        let path = (cachePath as NSString).appendingPathComponent(format.name)
        let level = Level(format, MemoryCache<T>(), DiskCache(path: path, capacity: format.diskCapacity))
        lock.withLock { formats[format.name] = level }
    }

    /// Caches `value` under `key` in the format `formatName`, after the format's transform:
    /// in memory at once, on disk in the background (`format.convertToData ?? value.asData()`).
    /// `success` gets the formatted value: synchronously for the original format of a non-image
    /// value, else on main. Setting into a format that was never added is a programming error.
    open func set(
        value: T, key: String, formatName: String = HanekeGlobals.Cache.OriginalFormatName,
        success: ((T) -> ())? = nil
    ) {
        guard let level = level(formatName) else {
            assertionFailure("Can't set value before adding format \(formatName)")
            return
        }
        formatted(value, with: level.format) { formatted in
            level.memory.set(formatted, forKey: key)
            let box = Unchecked(formatted)
            level.disk.setData(Self.data(of: box.value, format: level.format), key: key)
            success?(formatted)
        }
    }

    /// Fetches `key` in `formatName`: memory, then disk. Unknown format: -101, synchronously;
    /// memory hit: success, synchronously; disk hit: success on main (the value is then kept in
    /// memory); missing: -100 on main.
    @discardableResult
    open func fetch(
        key: String, formatName: String = HanekeGlobals.Cache.OriginalFormatName,
        failure: Fetch<T>.Failer? = nil, success: Fetch<T>.Succeeder? = nil
    ) -> Fetch<T> {
        let fetch = Fetch<T>.build(failure: failure, success: success)
        guard let level = level(formatName) else {
            fetch.fail(
                errorWithCode(
                    HanekeGlobals.Cache.ErrorCode.formatNotFound.rawValue,
                    description: "Format \(formatName) not found"))
            return fetch
        }
        if let value = level.memory.value(forKey: key) {
            fetch.succeed(value)
            let box = Unchecked(value)
            level.disk.updateAccessDate(Self.data(of: box.value, format: level.format), key: key)
            return fetch
        }
        fetchFromDisk(key: key, level: level, fetch: fetch)
        return fetch
    }

    /// Fetches the fetcher's key from the cache; when it is missing (-100), runs the fetcher and
    /// caches its value in `formatName` before returning it (formatted).
    @discardableResult
    open func fetch(
        fetcher: Fetcher<T>, formatName: String = HanekeGlobals.Cache.OriginalFormatName,
        failure: Fetch<T>.Failer? = nil, success: Fetch<T>.Succeeder? = nil
    ) -> Fetch<T> {
        let fetch = Fetch<T>.build(failure: failure, success: success)
        self.fetch(
            key: fetcher.key, formatName: formatName,
            failure: { error in
                guard let error = error as NSError?, error.domain == HanekeGlobals.Domain,
                    error.code == HanekeGlobals.Cache.ErrorCode.objectNotFound.rawValue
                else {
                    fetch.fail(error)
                    return
                }
                fetcher.fetch(
                    failure: { error in
                        fetch.fail(error)
                    },
                    success: { value in
                        self.set(value: value, key: fetcher.key, formatName: formatName) { fetch.succeed($0) }
                    })
            },
            success: { value in
                fetch.succeed(value)
            })
        return fetch
    }

    /// Fetches `key`; when the cache does not have it, caches the value `getValue` gives
    /// (evaluated only then, on the calling thread) in `formatName` and returns it formatted:
    /// ``fetch(fetcher:formatName:failure:success:)`` with a ``SimpleFetcher``.
    @discardableResult
    open func fetch(
        key: String, value getValue: @autoclosure @escaping () -> T.Result,
        formatName: String = HanekeGlobals.Cache.OriginalFormatName, success: Fetch<T>.Succeeder? = nil
    ) -> Fetch<T> {
        fetch(fetcher: SimpleFetcher<T>(key: key, value: getValue()), formatName: formatName, success: success)
    }

    // Haneke's argument label, kept for source compatibility.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// ``fetch(fetcher:formatName:failure:success:)`` with a ``NetworkFetcher`` for `URL`.
    @discardableResult
    open func fetch(
        URL: URL, formatName: String = HanekeGlobals.Cache.OriginalFormatName,
        failure: Fetch<T>.Failer? = nil, success: Fetch<T>.Succeeder? = nil
    ) -> Fetch<T> {
        fetch(fetcher: NetworkFetcher<T>(URL: URL), formatName: formatName, failure: failure, success: success)
    }

    /// ``fetch(fetcher:formatName:failure:success:)`` with a ``DiskFetcher`` for `path`.
    @discardableResult
    open func fetch(
        path: String, formatName: String = HanekeGlobals.Cache.OriginalFormatName,
        failure: Fetch<T>.Failer? = nil, success: Fetch<T>.Succeeder? = nil
    ) -> Fetch<T> {
        fetch(fetcher: DiskFetcher<T>(path: path), formatName: formatName, failure: failure, success: success)
    }

    /// Removes `key` from `formatName`: from memory at once, from disk in the background.
    open func remove(key: String, formatName: String = HanekeGlobals.Cache.OriginalFormatName) {
        guard let level = level(formatName) else { return }
        level.memory.removeValue(forKey: key)
        level.disk.removeData(with: key)
    }

    /// Empties every format: memory at once, disk in the background; `completion` comes on main
    /// once every disk level is empty.
    open func removeAll(_ completion: (() -> ())? = nil) {
        let levels = lock.withLock { Array(formats.values) }
        let group = DispatchGroup()
        for level in levels {
            level.memory.removeAll()
            group.enter()
            level.disk.removeAllData { group.leave() }
        }
        if let completion {
            let box = Unchecked(completion)
            group.notify(queue: .main) { box.value() }
        }
    }

    /// The bytes the cache takes on disk, all formats together, once the disk work already
    /// queued (writes of earlier `set` calls) has run: it blocks until then, as in Haneke.
    open var size: UInt64 {
        lock.withLock { formats.values.map(\.disk) }.reduce(0) { total, disk in
            disk.cacheQueue.sync {}
            return total + disk.size
        }
    }

    // MARK: Private

    private func level(_ formatName: String) -> Level? {
        lock.withLock { formats[formatName] }
    }

    /// The bytes to store on disk; `nil` (nothing stored) when the format's conversion gives none.
    private static func data(of value: T, format: Format<T>) -> Data? {
        guard let convert = format.convertToData else { return value.asData() }
        let data = convert(value)
        return data.isEmpty ? nil : data
    }

    /// Applies the format: synchronously when there is nothing to do, else in the background
    /// with the result on main (images always take that path, as in Haneke).
    private func formatted(_ value: T, with format: Format<T>, then: @escaping (T) -> Void) {
        if format.isIdentity && !(value is Imaging.Image) {
            then(value)
            return
        }
        let work = Unchecked((value, format, then))
        inBackground {
            let (value, format, then) = work.value
            let result = Unchecked(format.apply(value))
            onMain { then(result.value) }
        }
    }

    private func fetchFromDisk(key: String, level: Level, fetch: Fetch<T>) {
        level.disk.fetchData(
            key: key,
            failure: { error in
                let code = (error as NSError?)?.code
                if code == NSFileReadNoSuchFileError || code == NSFileNoSuchFileError {
                    fetch.fail(Self.notFound(key))
                } else {
                    fetch.fail(error)
                }
            },
            success: { data in
                inBackground {
                    guard let value = T.convertFromData(data) else {
                        // Unreadable bytes (a file written by something else): treated as a miss so
                        // that fetch(fetcher:) replaces them (Haneke never called back here).
                        level.disk.removeData(with: key)
                        onMain { fetch.fail(Self.notFound(key)) }
                        return
                    }
                    let box = Unchecked(value)
                    onMain {
                        level.memory.set(box.value, forKey: key)
                        fetch.succeed(box.value)
                    }
                }
            })
    }

    private static func notFound(_ key: String) -> NSError {
        errorWithCode(
            HanekeGlobals.Cache.ErrorCode.objectNotFound.rawValue, description: "Object not found for key \(key)")
    }
}

extension Cache: MemoryPressureTrimming {
    /// Trims the memory level of every format (the disk levels stay): about half at a warning,
    /// all at critical pressure (Linux's counterpart of Haneke's purge on a memory warning).
    public func trim(for level: MemoryPressureMonitor.Level) {
        for format in lock.withLock({ Array(formats.values) }) { format.memory.trim(for: level) }
    }
}
