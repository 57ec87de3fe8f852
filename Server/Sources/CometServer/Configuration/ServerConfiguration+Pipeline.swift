import Comet
import Logging
import Tracing

extension ServerConfiguration {
    /// The configuration of the service's pipeline: sources through `fetcher` (each download a
    /// `fetch` span of the request that started it), a memory cache of
    /// ``imageCacheBytes`` (none at 0), no disk cache and no resumable downloads (results are
    /// stored instead), the fetch limits' largest body, the source and animation limits, and
    /// decodes and processor runs recorded as `decode` and `process` spans when `tracer`
    /// records any.
    public func pipelineConfiguration(fetcher: SourceFetcher, tracer: any Tracer, logger: Logger)
        -> ImagePipeline.Configuration
    {
        var configuration = ImagePipeline.Configuration(dataLoader: fetcher)
        configuration.imageCache = imageCacheBytes > 0 ? ImageCache(costLimit: imageCacheBytes) : nil
        configuration.dataCache = nil
        configuration.isResumableDataEnabled = false
        configuration.maximumResponseDataSize = fetchLimits.maximumBytes
        configuration.decodingOptions.limits.maxSourcePixelCount = maximumSourcePixels
        configuration.decodingOptions.limits.maxFrameCount = maximumAnimationFrames
        configuration.decodingOptions.limits.maxAnimationPixelCount = maximumAnimationPixels
        configuration.dataLoadingConcurrencyLimit = max(6, maximumConcurrentWork)
        configuration.logger = logger
        configuration.hooks.dataLoader = { request in
            guard let context = request.userInfo[.serviceContext] as? ServiceContext else { return fetcher }
            return TracedSourceLoader(fetcher: fetcher, tracer: tracer, context: context)
        }
        if !(tracer is NoOpTracer) {
            let spans = StageSpanRecorder(tracer: tracer)
            configuration.hooks.stageFinished = { request, report in spans.record(report, for: request) }
        }
        return configuration
    }
}
