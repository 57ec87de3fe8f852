import Comet
import Foundation
import Tracing

extension ResultMaker {
    /// What the `image` span makes: a result already (a skipped format), an animation's frames,
    /// or the still image, with the format each is encoded in (`nil`: JPEG when the image is
    /// opaque, PNG when it has transparency).
    private enum Made: Sendable {
        case result(StoredResult)
        case frames(AnimatedImage, OutputFormat)
        case still(Image, OutputFormat?)
    }

    /// Makes the result of a thumbnail request within the processing time limit: fetches and
    /// decodes the source (or sends a skipped format's bytes as they are), runs the plan's
    /// steps and encodes the result in the format chosen. Spans: `image` (with the pipeline's
    /// `fetch`, `decode` and `process` as its children), then `encode`.
    public func makeThumbnail(_ request: ThumbnailRequest) async throws -> StoredResult {
        let canonical = request.path.canonicalSource
        guard let source = URL(string: canonical) else {
            throw ServiceError.badURL("the source URL \(canonical) cannot be parsed")
        }
        // The `mb` search stops before the deadline: an encode cannot be cancelled once started.
        return try await withinDeadline(doing: "making the image") { [self] deadline in
            try await makeThumbnail(request, source: source, deadline: deadline)
        }
    }

    private func makeThumbnail(
        _ request: ThumbnailRequest, source: URL, deadline: ContinuousClock.Instant
    ) async throws -> StoredResult {
        let plan = request.plan
        let made: Made
        do {
            // One `image` span: the pipeline's (and an early fetch's) spans are its children.
            made = try await tracer.withAnySpan("image") { span in
                span.attributes["server.address"] = source.host
                let context = traces ? span.context : nil
                return try await makeImage(request, plan: plan, source: source, context: context) { name, value in
                    span.attributes[name] = value
                }
            }
        } catch let error as ImagePipeline.Error where error.isCancellation {
            throw CancellationError()
        }
        let encoding = plan.encoding
        let bytes: [UInt8]
        let format: OutputFormat
        switch made {
        case .result(let result):
            return result
        case .frames(let animation, let animationFormat):
            format = animationFormat
            bytes = try await tracer.withAnySpan("encode") { span in
                span.attributes["comet.format"] = format.rawValue
                span.attributes["comet.frames"] = animation.frames.count
                return try await Self.offCooperativePool {
                    try encoding.encode(animation, as: format, deadline: deadline)
                }
            }
        case .still(let image, let stillFormat):
            format = stillFormat ?? (image.isOpaque ? .jpeg : .png)
            bytes = try await tracer.withAnySpan("encode") { span in
                span.attributes["comet.format"] = format.rawValue
                let bytes = try await Self.offCooperativePool {
                    try encoding.encode(image, as: format, deadline: deadline)
                }
                span.attributes["comet.encoded.size"] = bytes.count
                return bytes
            }
        }
        return try finish(
            bytes, contentType: format.contentType, key: request.key, format: format.rawValue, source: source)
    }

    /// Fetches (under `context`, the `image` span's) and decodes and processes the source, or
    /// answers from its bytes when their format is skipped; `record` gets the span attributes
    /// (the image's size, an animation's frame count).
    private func makeImage(
        _ thumbnail: ThumbnailRequest, plan: ThumbnailPlan, source: URL, context: ServiceContext?,
        record: (String, Int) -> Void
    ) async throws -> Made {
        var request = plan.imageRequest(source: source)
        var fetched: (data: Data, id: String)?
        let limits = thumbnail.sourceLimits
        if !plan.skippedSourceFormats.isEmpty || plan.enforcesThumbnail || thumbnail.choice == .source
            || limits.checksBeforeDecoding
        {
            // The bytes are fetched first, to check them against the request's own limits, tell
            // their format or find their thumbnail; the image is then decoded from them rather
            // than fetched again.
            var fetch = ImageRequest(url: source)
            if let context { fetch.userInfo[.serviceContext] = context }
            var (data, _) = try await pipeline.data(for: fetch)
            if limits.checksBeforeDecoding { try limits.check(data) }
            if let type = AssetType(data), plan.skippedSourceFormats.contains(type),
                thumbnail.askedFormat.map({ OutputFormat(type) == $0 }) ?? true
            {
                let result = try finish(
                    [UInt8](data), contentType: Self.contentType(of: type), key: thumbnail.key,
                    format: type.rawValue, source: source)
                return .result(result)
            }
            var id = Self.fetchedID(of: source)
            if plan.enforcesThumbnail, let embedded = Self.embeddedThumbnail(in: data, covering: plan) {
                data = embedded
                // Not the same image as the full decode's, for the pipeline's caches.
                id += "#exif-thumbnail"
            }
            request = plan.imageRequest(id: id, data: data)
            fetched = (data, id)
        }
        let format: OutputFormat?
        let framePlan = thumbnail.framePlan
        switch thumbnail.choice {
        case .exactly(let asked):
            format = asked
        case .source:
            let data = fetched?.data ?? Data()
            let isAnimated = framePlan != nil && AnimationHeader(data)?.isAnimated == true
            format = FormatChoice.format(forSource: AssetType(data), isAnimated: isAnimated)
        }
        if let framePlan, let format, format == .webp || format == .gif {
            switch try await loadKeepingAnimation(
                source: source, fetched: fetched, plan: plan, framePlan: framePlan, limits: limits,
                context: context, record: record)
            {
            case .still(let stillRequest):
                request = stillRequest
            case .frames(let animation):
                return .frames(animation, format)
            }
        }
        if let context { request.userInfo[.serviceContext] = context }
        let pipeline = plan.appliesOrientation ? pipeline : storedOrientationPipeline
        let image = try await pipeline.image(for: request)
        record("comet.image.width", image.width)
        record("comet.image.height", image.height)
        return .still(image, format)
    }

    /// The EXIF thumbnail of a JPEG `data` when it is at least the plan's resize on each side
    /// given (`eth`).
    private static func embeddedThumbnail(in data: Data, covering plan: ThumbnailPlan) -> Data? {
        guard let target = plan.requestedSize, let thumbnail = EXIFThumbnail.jpeg(in: [UInt8](data)),
            thumbnail.width >= target.width, thumbnail.height >= target.height
        else { return nil }
        return Data(thumbnail.bytes)
    }

    /// The media type of a source format sent as it is (`skp`).
    private static func contentType(of type: AssetType) -> String {
        ImageFormat(type)?.mimeType ?? "application/octet-stream"
    }
}
