import Foundation

/// What a ``DecodeJob`` and a ``ProcessJob`` share: the request and key they make an image for,
/// their start (the memory cache, then the disk cache's encoded image when the key may read it,
/// then their own work), whether an image task asked for their result directly (it is then
/// cached), and leaving their pool when done.
///
/// Confined to its pipeline's graph, as every ``Job``.
class ImageJob: Job<ImageResult>, @unchecked Sendable {
    // @unchecked Sendable: confined to the pipeline's graph (PipelineExecutor), as every Job.
    let request: ImageRequest
    let key: ImageKey
    /// The memory-cache key of ``key``, made once.
    let memoryKey: ImageCacheKey
    let context: PipelineContext  // strong: in-flight work outlives a released pipeline
    /// Set when an image task subscribed to this job directly (its result is what a request asked for).
    private var isRequestedDirectly = false

    init(request: ImageRequest, key: ImageKey, memoryKey: ImageCacheKey, context: PipelineContext) {
        self.request = request
        self.key = key
        self.memoryKey = memoryKey
        self.context = context
        super.init(executor: context.executor)
    }

    /// An image task subscribes to this job directly: its final result is then cached.
    final func markRequestedDirectly(_ graph: borrowing GraphToken) { isRequestedDirectly = true }

    /// Whether the disk cache's encoded image for ``key`` may answer. Subclasses override.
    func readsEncodedImage() -> Bool { false }

    /// Makes the image when no cache had it. Subclasses override.
    func compute(_ graph: borrowing GraphToken) {}

    final override func start(_ graph: borrowing GraphToken) {
        if finishFromMemoryCache(context, memoryKey: memoryKey, request: request, graph) { return }
        if readsEncodedImage() {
            finishFromDiskCache(context, key: key, request: request, graph) { [weak self] graph in
                self?.compute(graph)
            }
        } else {
            compute(graph)
        }
    }

    final override func didEnd(_ graph: borrowing GraphToken) {
        context.removeFromPool(self, graph)
    }

    /// Caches a final result when an image task asked for it directly; `processed`: it went
    /// through processors.
    final func storeIfRequestedDirectly(_ result: ImageResult, processed: Bool, _ graph: borrowing GraphToken) {
        guard isRequestedDirectly else { return }
        context.store(result, key: key, memoryKey: memoryKey, request: request, processed: processed, graph)
    }
}
