import Locking
import Foundation
import Synchronization

/// Loads images ahead of need (the next page of a feed, the gallery after this one), at low
/// priority, so they are in a cache when they are asked for.
///
/// Requests already in the destination cache are skipped; requests already being prefetched
/// are not started twice. At most ``maxConcurrentRequestCount`` prefetches run at once, the
/// rest wait in order. Releasing the prefetcher stops everything it started.
///
/// Thread-safe.
public final class ImagePrefetcher: Sendable {
    /// Where prefetched images end up.
    public enum Destination: Sendable {
        /// Decoded (and processed) in the memory cache: ready to show.
        case memoryCache
        /// As original data in the disk cache (no processing; the data is decoded once to make
        /// sure it is a clean image before it is stored). Needs a pipeline with a data cache.
        case diskCache
    }

    private struct State {
        var running: [String: (id: Int, task: any PrefetchRunning)] = [:]
        var waiting: [(key: String, request: ImageRequest)] = []
        var starting: Set<Int> = []  // dequeued, not yet recorded in `running`
        var finishedEarly: Set<Int> = []  // finished while still `starting`
        var nextId = 0
    }

    /// The pipeline that loads.
    public let pipeline: ImagePipeline
    /// Where images go.
    public let destination: Destination
    /// How many prefetches run at once. Default 2.
    public let maxConcurrentRequestCount: Int
    /// The priority prefetches run at (requests' own priorities are replaced). Default `.low`.
    public let priority: ImageRequest.Priority
    private let state = Locked(State())

    /// Creates a prefetcher.
    public init(
        pipeline: ImagePipeline = .shared, destination: Destination = .memoryCache,
        maxConcurrentRequestCount: Int = 2, priority: ImageRequest.Priority = .low
    ) {
        self.pipeline = pipeline
        self.destination = destination
        self.maxConcurrentRequestCount = max(1, maxConcurrentRequestCount)
        self.priority = priority
    }

    deinit {
        let running = state.withLock { $0.running.values.map(\.task) }
        for task in running { task.cancel() }
    }

    /// Prefetches the images at `urls`.
    public func startPrefetching(with urls: [URL]) {
        startPrefetching(with: urls.map { ImageRequest(url: $0) })
    }

    /// Prefetches `requests` (in order), skipping those already cached or being prefetched.
    public func startPrefetching(with requests: [ImageRequest]) {
        state.withLock { state in
            for var request in requests {
                let key = Self.key(for: request)
                guard state.running[key] == nil, !state.waiting.contains(where: { $0.key == key }), !isCached(request)
                else { continue }
                request.priority = priority
                state.waiting.append((key, request))
            }
        }
        startWaiting()
    }

    /// Stops prefetching the images at `urls` (running loads are cancelled).
    public func stopPrefetching(with urls: [URL]) {
        stopPrefetching(with: urls.map { ImageRequest(url: $0) })
    }

    /// Stops prefetching `requests` (running loads are cancelled; shared work continues for
    /// other tasks).
    public func stopPrefetching(with requests: [ImageRequest]) {
        let keys = Set(requests.map(Self.key(for:)))
        let cancelled = state.withLock { state -> [any PrefetchRunning] in
            state.waiting.removeAll { keys.contains($0.key) }
            return keys.compactMap { state.running.removeValue(forKey: $0)?.task }
        }
        for task in cancelled { task.cancel() }
        startWaiting()
    }

    /// Stops everything.
    public func stopPrefetching() {
        let cancelled = state.withLock { state -> [any PrefetchRunning] in
            state.waiting.removeAll()
            defer { state.running.removeAll() }
            return state.running.values.map(\.task)
        }
        for task in cancelled { task.cancel() }
    }

    /// Prefetches that are running or waiting.
    public var pendingCount: Int { state.withLock { $0.running.count + $0.waiting.count } }

    private static func key(for request: ImageRequest) -> String { request.key.diskKey }

    private func isCached(_ request: ImageRequest) -> Bool {
        switch destination {
        case .memoryCache:
            return pipeline.cache[request] != nil
        case .diskCache:
            guard let id = pipeline.context.dataCacheKey(for: request),
                let dataCache = pipeline.context.dataCache(for: request)
            else { return false }
            return dataCache.containsData(for: id)
        }
    }

    private func startWaiting() {
        let toStart = state.withLock { state -> [(Int, String, ImageRequest)] in
            var started: [(Int, String, ImageRequest)] = []
            while state.running.count + state.starting.count < maxConcurrentRequestCount, !state.waiting.isEmpty {
                let next = state.waiting.removeFirst()
                state.nextId += 1
                state.starting.insert(state.nextId)
                started.append((state.nextId, next.key, next.request))
            }
            return started
        }
        for (id, key, request) in toStart { start(id: id, key: key, request: request) }
    }

    private func start(id: Int, key: String, request: ImageRequest) {
        let running: any PrefetchRunning
        switch destination {
        case .memoryCache:
            running = pipeline.loadImage(with: request) { [weak self] _ in self?.didFinish(id: id, key: key) }
        case .diskCache:
            let pipeline = self.pipeline
            running = Task { [weak self] in
                _ = try? await pipeline.data(for: request)
                self?.didFinish(id: id, key: key)
            }
        }
        state.withLock { state in
            // A fast prefetch (a cache hit) may have finished before it could be recorded.
            state.starting.remove(id)
            if state.finishedEarly.remove(id) == nil { state.running[key] = (id, running) }
        }
    }

    private func didFinish(id: Int, key: String) {
        state.withLock { state in
            if state.running[key]?.id == id {
                state.running[key] = nil
            } else if state.starting.contains(id) {
                state.finishedEarly.insert(id)
            }
        }
        startWaiting()
    }
}

/// What a running prefetch is: an image task, or a Swift task loading data.
protocol PrefetchRunning: Sendable {
    func cancel()
}

extension ImageTask: PrefetchRunning {}
extension Task: PrefetchRunning where Success == Void, Failure == Never {}
