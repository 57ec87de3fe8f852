import Foundation

/// Runs one processor on the result of the job before it (the decode, or the previous
/// processors): one job per processor prefix, so requests `[resize]` and `[resize, blur]` share
/// the resize. Previews are processed too when the processor is free (skipped otherwise).
/// Processors run on a worker through the processing queue; the processed image takes the place
/// of its input in the result, which keeps the input's backlog ticket until delivery.
final class ProcessJob: Job<ImageResult>, @unchecked Sendable {
    // @unchecked Sendable: confined to the pipeline's graph (PipelineExecutor), as every Job.
    private let request: ImageRequest
    private let key: ImageKey
    /// The memory-cache key of ``key``, made once.
    private let memoryKey: ImageCacheKey
    private let processor: any ImageProcessing
    private let context: PipelineContext  // strong: in-flight work outlives a released pipeline
    private var isProcessing = false
    private var pendingFinal: ImageResult?
    /// Set when an image task subscribed to this job directly.
    private(set) var isRequestedDirectly = false

    /// An image task subscribes to this job directly: its final result is then cached.
    func markRequestedDirectly(_ graph: borrowing GraphToken) { isRequestedDirectly = true }

    init(request: ImageRequest, key: ImageKey, memoryKey: ImageCacheKey, context: PipelineContext) {
        self.request = request
        self.key = key
        self.memoryKey = memoryKey
        self.processor = request.processors[key.processors.count - 1]
        self.context = context
        super.init(executor: context.executor)
    }

    override func start(_ graph: borrowing GraphToken) {
        if finishFromMemoryCache(context, memoryKey: memoryKey, request: request, graph) { return }
        if context.cachePolicy.readsEncodedImage(for: request, processed: true) {
            finishFromDiskCache(context, key: key, request: request, graph) { [weak self] graph in
                self?.subscribeUpstream(graph)
            }
        } else {
            subscribeUpstream(graph)
        }
    }

    override func didEnd(_ graph: borrowing GraphToken) {
        context.removeFromPool(self, key: key, graph)
    }

    private func subscribeUpstream(_ graph: borrowing GraphToken) {
        let upstreamKey =
            key.processors.count == 1
            ? key.decodeStage(downsamplingForResize: context.configuration.isResizeDownsamplingEnabled)
            : key.prefix(key.processors.count - 1)
        let upstream = context.imageJob(for: request, key: upstreamKey, isDirect: false, graph)
        // Strong `self` (no side table for a weak one): the cycle through `dependency` or the
        // work item ends when the job is done or the work starts or is cancelled.
        depend(on: upstream, graph) { graph, event in
            switch event {
            case .progress(let completed, let total):
                self.send(.progress(completed: completed, total: total), graph)
            case .value(let result, isCompleted: false):
                if !self.isProcessing { self.process(result, isFinal: false, graph) }
            case .value(let result, isCompleted: true):
                if self.isProcessing {
                    self.pendingFinal = result
                } else {
                    self.process(result, isFinal: true, graph)
                }
            case .error(let error):
                self.send(.error(error), graph)
            }
        }
    }

    private func process(_ input: ImageResult, isFinal: Bool, _ graph: borrowing GraphToken) {
        guard !isDone(graph) else { return }
        isProcessing = true
        let processor = self.processor
        let image = input.image
        var work: @Sendable () -> Result<Image, any Error> = {
            Result { try processor.process(image).carryingColorProfile(of: image) }
        }
        if isFinal, let report = context.hooks.stageFinished {
            let timer = StageTimer(
                report: report, request: request, stage: .process(processor.identifier), inputBytes: nil)
            work = timer.timing(work, size: { Size(width: $0.width, height: $0.height) })
        }
        let item = context.processingQueue.run(
            priority: priority(graph), graph, work,
            then: { graph, output in
                self.didProcess(input, output, isFinal: isFinal, graph)
            })
        setWorkItem(item, graph)
    }

    private func didProcess(
        _ input: ImageResult, _ output: Result<Image, any Error>, isFinal: Bool, _ graph: borrowing GraphToken
    ) {
        isProcessing = false
        guard !isDone(graph) else { return }
        context.metrics.record(.processorRuns)
        switch output {
        case .success(let image):
            var result = input
            result.image = image
            if isFinal {
                if isRequestedDirectly {
                    context.store(result, key: key, memoryKey: memoryKey, request: request, processed: true, graph)
                }
                send(.value(result, isCompleted: true), graph)
            } else {
                send(.value(result, isCompleted: false), graph)
            }
        case .failure(let error):
            // A preview that fails to process is dropped; only the final image's failure counts.
            if isFinal {
                send(
                    .error(.processingFailed(request: request, processor: processor.identifier, underlying: error)),
                    graph)
            }
        }
        if let pendingFinal {
            self.pendingFinal = nil
            process(pendingFinal, isFinal: true, graph)
        }
    }
}
