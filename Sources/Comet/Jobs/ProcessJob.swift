import Foundation

/// Runs one processor on the result of the job before it (the decode, or the previous
/// processors): one job per processor prefix, so requests `[resize]` and `[resize, blur]` share
/// the resize. Previews are processed too when the processor is free (skipped otherwise).
/// Processors run on a worker through the processing queue; the processed image takes the place
/// of its input in the result, which keeps the input's backlog ticket until delivery.
final class ProcessJob: ImageJob, @unchecked Sendable {
    // @unchecked Sendable: confined to the pipeline's graph (PipelineExecutor), as every Job.
    private let processor: any ImageProcessing
    private var processing = Processing.idle

    /// Whether the processor runs, and the final input that waits for that run to end (a
    /// preview that arrives meanwhile is skipped).
    private enum Processing {
        case idle
        case running(finalWaiting: ImageResult?)
    }

    override init(request: ImageRequest, key: ImageKey, memoryKey: ImageCacheKey, context: PipelineContext) {
        self.processor = request.processors[key.processors.count - 1]
        super.init(request: request, key: key, memoryKey: memoryKey, context: context)
    }

    override func readsEncodedImage() -> Bool {
        context.cachePolicy.readsEncodedImage(for: request, processed: true)
    }

    /// Subscribes to the job before it (the decode, or the previous processors).
    override func compute(_ graph: borrowing GraphToken) {
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
                if case .idle = self.processing { self.process(result, isFinal: false, graph) }
            case .value(let result, isCompleted: true):
                if case .running = self.processing {
                    self.processing = .running(finalWaiting: result)
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
        processing = .running(finalWaiting: nil)
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
        var finalWaiting: ImageResult?
        if case .running(let waiting) = processing { finalWaiting = waiting }
        processing = .idle
        guard !isDone(graph) else { return }
        context.metrics.record(.processorRuns)
        switch output {
        case .success(let image):
            var result = input
            result.image = image
            if isFinal {
                storeIfRequestedDirectly(result, processed: true, graph)
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
        if let finalWaiting { process(finalWaiting, isFinal: true, graph) }
    }
}
