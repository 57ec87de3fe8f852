import CometTestSupport
import Foundation
import HanekeCompat

/// Every cache the tests create (the `Shared` ones included) lives in one temporary directory,
/// set as `DiskCache.baseDirectory` before any cache exists and removed when the process exits.
enum TestBase {
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("haneke-compat-tests-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        DiskCache.baseDirectory = url
        removeAtExit = url.path
        atexit { if let path = removeAtExit { try? FileManager.default.removeItem(atPath: path) } }
        return url
    }()

    /// Points `DiskCache.baseDirectory` at the temporary directory and tags the main queue
    /// (idempotent).
    static func prepare() {
        _ = directory
        _ = mainQueueTagged
    }

    private static let mainQueueTagged: Void = DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    static let mainQueueKey = DispatchSpecificKey<Bool>()

    /// Whether the caller runs on the main queue (Haneke's "on main").
    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueKey) == true }

    /// A cache name no other test uses.
    static func uniqueName(_ label: String = #function) -> String {
        "\(label.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString)"
    }

    /// A fresh directory for a standalone `DiskCache`.
    static func diskCachePath(_ label: String = #function) -> String {
        prepare()
        return directory.appendingPathComponent("disk-" + uniqueName(label)).path
    }
}

nonisolated(unsafe) private var removeAtExit: String?

/// Records the callbacks of a fetch or set: values, errors, and whether each came on main.
/// Thread-safe: everything sits behind `lock`.
final class Outcome<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var storedValues: [T] = []
    private var storedErrors: [Error?] = []
    private var storedOnMain: [Bool] = []

    var succeed: (T) -> () {
        { value in
            self.lock.withLock {
                self.storedValues.append(value); self.storedOnMain.append(TestBase.isOnMainQueue)
            }
        }
    }

    var fail: (Error?) -> () {
        { error in
            self.lock.withLock {
                self.storedErrors.append(error); self.storedOnMain.append(TestBase.isOnMainQueue)
            }
        }
    }

    var values: [T] { lock.withLock { storedValues } }
    var errors: [Error?] { lock.withLock { storedErrors } }
    var callbackCount: Int { lock.withLock { storedOnMain.count } }
    /// Whether every callback so far came on the main thread.
    var allOnMain: Bool { lock.withLock { !storedOnMain.isEmpty && storedOnMain.allSatisfy { $0 } } }
    var value: T? { values.first }
    var error: NSError? { errors.first.flatMap { $0 as NSError? } }

    /// Waits (at most `seconds`) until a callback arrived; returns whether one did.
    func wait(_ seconds: Double = 120) async -> Bool {
        await eventually(within: seconds) { callbackCount > 0 }
    }
}

/// Runs `fetcher` and waits (bounded) for its callback.
func fetched<T>(_ fetcher: Fetcher<T>) async -> Outcome<T> where T.Result == T {
    let outcome = Outcome<T>()
    fetcher.fetch(failure: outcome.fail, success: outcome.succeed)
    _ = await outcome.wait()
    return outcome
}

/// Waits (bounded) until `cache` has bytes on disk; returns whether it has.
func hasDiskData<T>(_ cache: Cache<T>) async -> Bool {
    await eventually { cache.size > 0 }
}

/// Waits until every earlier operation on `cache`'s queue has finished.
func drain(_ cache: DiskCache) {
    cache.cacheQueue.sync {}
}

/// The number of regular files in `path`.
func fileCount(in path: String) -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).count
}
