import Foundation

/// Reads a file and converts its bytes; its key is the path.
///
/// Errors (on main): the read error as it is; bytes that do not convert → -500. After
/// ``cancelFetch()`` nothing is called.
open class DiskFetcher<T: DataConvertible>: Fetcher<T>, @unchecked Sendable {
    // Safe: `cancelled` lives behind `lock`.

    /// The file read.
    public let path: String

    private let lock = NSLock()
    private var cancelled = false

    /// A fetcher for the file at `path`, keyed by the path.
    public init(path: String) {
        self.path = path
        super.init(key: path)
    }

    /// Reads the file on a background queue.
    open override func fetch(failure: @escaping (Error?) -> (), success: @escaping (T.Result) -> ()) {
        lock.withLock { cancelled = false }
        let callbacks = Unchecked((failure, success))
        inBackground { self.read(callbacks: callbacks) }
    }

    /// Cancels the read; no callback follows.
    open override func cancelFetch() {
        lock.withLock { cancelled = true }
    }

    private var isCancelled: Bool { lock.withLock { cancelled } }

    private func read(callbacks: Unchecked<((Error?) -> (), (T.Result) -> ())>) {
        guard !isCancelled else { return }
        let (failure, success) = callbacks.value
        let data: Data
        do {
            data = try Data(contentsOf: Foundation.URL(fileURLWithPath: path))
        } catch {
            onMain { if !self.isCancelled { failure(error) } }
            return
        }
        guard let value = T.convertFromData(data) else {
            let error = errorWithCode(
                HanekeGlobals.DiskFetcher.ErrorCode.invalidData.rawValue,
                description: "Failed to convert value from data at path \(path)")
            onMain { if !self.isCancelled { failure(error) } }
            return
        }
        let box = Unchecked(value)
        onMain { if !self.isCancelled { success(box.value) } }
    }
}
