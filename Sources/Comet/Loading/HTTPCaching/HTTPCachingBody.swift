import Foundation
import Locking
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The body of one load of ``HTTPCachingDataLoader`` as it arrives, kept for the cache up to a
/// limit (past it, only the response is kept).
///
/// Thread-safe (a loader may deliver chunks on different threads, one at a time).
final class HTTPCachingBody: Sendable {
    private struct State {
        var data = Data()
        var response: URLResponse?
        var isOverLimit = false
    }

    private let limit: Int?
    private let state = Locked(State())

    /// `limit`: the most bytes kept; `nil` for no limit.
    init(limit: Int?) {
        self.limit = limit
    }

    func append(_ chunk: Data, response: URLResponse) {
        state.withLock { state in
            state.response = response
            guard !state.isOverLimit else { return }
            if let limit, state.data.count + chunk.count > limit {
                state.isOverLimit = true
                state.data = Data()
            } else {
                state.data.append(chunk)
            }
        }
    }

    /// The response, and the whole body unless it went over the limit.
    var contents: (data: Data?, response: URLResponse?) {
        state.withLock { ($0.isOverLimit ? nil : $0.data, $0.response) }
    }
}
