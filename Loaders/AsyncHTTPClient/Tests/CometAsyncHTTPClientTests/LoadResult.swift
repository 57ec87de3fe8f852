import Comet
import CometAsyncHTTPClient
import Foundation
import Locking
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one load delivered: its chunks, the response they came with, and how it ended.
struct LoadResult: Sendable {
    var chunks: [Data] = []
    var response: HTTPURLResponse?
    var error: (any Error)?
    var completions = 0

    var data: Data { chunks.reduce(Data(), +) }
    var urlErrorCode: URLError.Code? { (error as? URLError)?.code }
    var loaderError: DataLoaderError? { error as? DataLoaderError }

    /// Loads `request` with `loader` and waits for its completion (and a little more, to see a
    /// second completion if one came).
    static func load(
        _ request: URLRequest, with loader: any DataLoading,
        onStart: @Sendable (any DataLoadingTask) -> Void = { _ in }
    ) async -> LoadResult {
        let recorder = Locked(LoadResult())
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let task = loader.loadData(
                with: request,
                didReceiveData: { data, response in
                    recorder.withLock {
                        $0.chunks.append(data)
                        $0.response = response as? HTTPURLResponse
                    }
                },
                completion: { error in
                    let isFirst = recorder.withLock { result in
                        result.error = error
                        result.completions += 1
                        return result.completions == 1
                    }
                    if isFirst { continuation.resume() }
                })
            onStart(task)
        }
        try? await Task.sleep(for: .milliseconds(20))
        return recorder.withLock { $0 }
    }

    static func load(_ url: URL, with loader: any DataLoading) async -> LoadResult {
        await load(URLRequest(url: url), with: loader)
    }
}
