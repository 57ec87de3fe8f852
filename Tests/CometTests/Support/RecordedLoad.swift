import Comet
import Foundation
import Locking
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one load through a `DataLoading` delivered, in order: its chunks with the response each
/// came with, then how it ended.
struct RecordedLoad: Sendable {
    /// One `didReceiveData` call.
    struct Chunk: Sendable {
        let data: Data
        let status: Int?
        let headers: [String: String]
    }

    var chunks: [Chunk] = []
    var error: (any Error)?
    var completions = 0
    /// Whether a chunk arrived after the completion (the contract forbids it).
    var chunkAfterCompletion = false

    var data: Data { chunks.reduce(into: Data()) { $0.append($1.data) } }
    var status: Int? { chunks.last?.status }
    var loaderError: DataLoaderError? { error as? DataLoaderError }

    /// The value of header `name` on the last chunk's response (case-insensitive), if any.
    func header(_ name: String) -> String? {
        chunks.last?.headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// Loads `request` with `loader` and waits for its completion.
    static func load(_ request: URLRequest, with loader: any DataLoading) async -> RecordedLoad {
        let recorder = Locked(RecordedLoad())
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            _ = loader.loadData(
                with: request,
                didReceiveData: { data, response in
                    let http = response as? HTTPURLResponse
                    let headers = (http?.allHeaderFields as? [String: String]) ?? [:]
                    recorder.withLock {
                        if $0.completions > 0 { $0.chunkAfterCompletion = true }
                        $0.chunks.append(Chunk(data: data, status: http?.statusCode, headers: headers))
                    }
                },
                completion: { error in
                    let isFirst = recorder.withLock {
                        $0.error = error
                        $0.completions += 1
                        return $0.completions == 1
                    }
                    if isFirst { continuation.resume() }
                })
        }
        return recorder.withLock { $0 }
    }

    static func load(_ url: URL, with loader: any DataLoading) async -> RecordedLoad {
        await load(URLRequest(url: url), with: loader)
    }
}
