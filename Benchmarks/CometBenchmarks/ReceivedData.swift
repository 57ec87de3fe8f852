import Foundation

/// Collects what a loader delivers (the loaders here call back synchronously, one at a time).
final class ReceivedData: @unchecked Sendable {
    // Sendable: appended to and read under `lock`.
    private let lock = NSLock()
    private var bytes = Data()

    func append(_ data: Data) { lock.withLock { bytes.append(data) } }
    var data: Data { lock.withLock { bytes } }
}
