import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Decodes the data of one resource (with one thumbnail setting) on the decoding queue.
///
/// With progressive decoding on, chunks feed an ``IncrementalImageDecoder`` and previews are
/// sent as they become available; the final image comes from the same decoder (equal to a
/// one-shot decode). What runs when, and who holds the decoder, is ``DecodeLifecycle``'s. After a clean decode the original data is stored in the disk cache, when the
/// policy says so.
///
/// Decoders come from the configuration's registry, by the data's format. Every decode goes
/// through the decoding queue and runs off the graph: on a worker, or, for a file of at most
/// 64×64 declared pixels whose decoder checks limits first (``CompleteDataDecode``), on the thread that
/// leaves the graph (cheaper than waking a worker). A final decode also takes
/// a ticket of the pipeline's decoded-image backlog, which its result carries until it is delivered.
final class DecodeJob: ImageJob, @unchecked Sendable {
    // @unchecked Sendable: confined to the pipeline's graph (PipelineExecutor), as every Job.
    /// Where the decode is, and who holds the incremental decoder.
    private var lifecycle = DecodeLifecycle<IncrementalDecoderBox>()

    private var decodingOptions: ImageDecodingOptions {
        var options = context.configuration.decodingOptions
        if let thumbnail = key.thumbnail {
            options.downsampling = thumbnail.downsampling
        } else if let downsampling = key.decodeDownsampling {
            options.downsampling = downsampling
        }
        options.decodesAnimation = key.decodesAnimation
        return options.keepingOriginalColors(key.keepsOriginalColors)
    }

    /// The disk keeps encoded images of thumbnails only, among unprocessed results.
    override func readsEncodedImage() -> Bool {
        key.thumbnail != nil && context.cachePolicy.readsEncodedImage(for: request, processed: false)
    }

    /// Subscribes to the data.
    override func compute(_ graph: borrowing GraphToken) {
        let fetch = context.fetchDataJob(for: request, graph)
        // `self` is held strongly by the handlers here (no weak reference: each would give the
        // job a side table): the cycle through `dependency` or the work item ends when the job
        // is done (`finishUp`) or the work starts or is cancelled.
        depend(on: fetch, graph) { graph, event in
            switch event {
            case .progress(let completed, let total):
                self.send(.progress(completed: completed, total: total), graph)
            case .value(let chunk, isCompleted: false):
                self.didReceiveChunk(chunk.data, graph)
            case .value(let data, isCompleted: true):
                self.perform(self.lifecycle.finalDataArrived(data), graph)
            case .error(let error):
                self.send(.error(error), graph)
            }
        }
    }

    /// Starts what the lifecycle asks for (nothing once the job is done: a subscriber may leave
    /// while a preview is sent).
    private func perform(_ action: DecodeLifecycle<IncrementalDecoderBox>.Action, _ graph: borrowing GraphToken) {
        guard !isDone(graph) else { return }
        switch action {
        case .none:
            break
        case .decodePreview(let decoder, let chunks):
            decodePreview(chunks, with: decoder, graph)
        case .decodeFinal(let data, let decoder, let chunks):
            decodeFinal(data, decoder: decoder, chunks: chunks, graph)
        }
    }

    // MARK: Previews

    private func didReceiveChunk(_ chunk: Data, _ graph: borrowing GraphToken) {
        guard !isDone(graph) else { return }
        let action = lifecycle.chunkArrived(chunk) {
            IncrementalDecoderBox(
                IncrementalImageDecoder(options: decodingOptions, registry: context.configuration.decoders))
        }
        perform(action, graph)
    }

    private func decodePreview(_ chunks: [Data], with decoder: IncrementalDecoderBox, _ graph: borrowing GraphToken) {
        let thumbnail = key.thumbnail
        let item = context.decodingQueue.run(
            priority: priority(graph), graph,
            { () -> Result<Image?, ImageDecodingError> in
                decoder.appendAndPreview(chunks).map { preview in
                    preview.map { image in
                        thumbnail.flatMap { try? $0.resize.process(image).carryingColorProfile(of: image) } ?? image
                    }
                }
            },
            then: { graph, outcome in
                self.didDecodePreview(outcome, returning: decoder, graph)
            })
        setWorkItem(item, graph)
    }

    private func didDecodePreview(
        _ outcome: Result<Image?, ImageDecodingError>, returning decoder: IncrementalDecoderBox,
        _ graph: borrowing GraphToken
    ) {
        guard !isDone(graph) else { return }
        // A decoder that gave up is dropped; the final decode reports the error, if any.
        let failed: Bool
        if case .failure = outcome { failed = true } else { failed = false }
        let next = lifecycle.previewDecoded(returning: decoder, failed: failed)
        if case .success(let preview?) = outcome {
            send(
                .value(
                    ImageResult(image: preview, isPreview: true, isClean: true, response: nil, cacheType: nil),
                    isCompleted: false), graph)
        }
        perform(next, graph)
    }

    // MARK: Final image

    private func decodeFinal(
        _ fetched: FetchedData, decoder: IncrementalDecoderBox?, chunks: [Data], _ graph: borrowing GraphToken
    ) {
        let decode = CompleteDataDecode(
            data: fetched.data, incremental: decoder, chunks: chunks, options: decodingOptions,
            thumbnail: key.thumbnail, decoders: context.configuration.decoders)
        var light: (@Sendable () -> Result<DecodedImage, ImageDecodingError>?)? =
            decode.mayRunWithoutWorker ? decode.runIfLight : nil
        var run: @Sendable () -> Result<DecodedImage, ImageDecodingError> = decode.run
        if let report = context.hooks.stageFinished {
            let timer = StageTimer(report: report, request: request, stage: .decode, inputBytes: fetched.data.count)
            let size: @Sendable (DecodedImage) -> Size = { Size(width: $0.image.width, height: $0.image.height) }
            light = light.map { timer.timingIfDone($0, size: size) }
            run = timer.timing(run, size: size)
        }
        let item = context.decodingQueue.runCountingBacklog(priority: priority(graph), light: light, graph, run) {
            graph, result, ticket in
            self.didDecodeFinal(result, ticket: ticket, graph)
        }
        setWorkItem(item, graph)
    }

    private func didDecodeFinal(
        _ result: Result<DecodedImage, ImageDecodingError>, ticket: DecodedImageBacklog.Ticket?,
        _ graph: borrowing GraphToken
    ) {
        guard !isDone(graph), let fetched = lifecycle.finalDecoded() else { return }
        switch result {
        case .success(let decoded):
            context.metrics.record(.decodes)
            if decoded.isClean && fetched.cacheType == nil {
                context.storeOriginalDataIfNeeded(fetched.data, for: request)
            }
            let value = ImageResult(
                image: decoded.image, isPreview: false, isClean: decoded.isClean,
                response: fetched.response, cacheType: fetched.cacheType, backlogTicket: ticket,
                animation: decoded.animation)
            storeIfRequestedDirectly(value, processed: false, graph)
            send(.value(value, isCompleted: true), graph)
        case .failure(let error):
            if case .tooLarge = error {
                send(.error(.imageTooLarge(request: request, underlying: error)), graph)
            } else {
                send(.error(.decodingFailed(request: request, underlying: error)), graph)
            }
        }
    }
}
