import Comet
import Foundation
import Locking
import Tracing

extension ThumbnailResponder {
    /// The answer to an `/info` request from an answer the store holds at hand, without
    /// suspending; `nil` when it holds none (then ``info(_:ifNoneMatch:)`` answers).
    public func storedInfo(for request: InfoRequest, ifNoneMatch: String?) -> ThumbnailAnswer? {
        guard let result = store.storedResult(for: request.storeKey) else { return nil }
        return infoAnswer(result, isStored: true, ifNoneMatch: ifNoneMatch)
    }

    /// Answers a checked `/info` request from the result store, which makes the JSON (fetch,
    /// one small decode, the BlurHash) within the load shedder's bounds and the processing time
    /// limit when it holds none. Stored for ``ServerConfiguration/resultTTL``, like results.
    public func info(_ request: InfoRequest, ifNoneMatch: String?) async throws(ServiceError) -> ThumbnailAnswer {
        let made = Locked(false)
        let result: StoredResult
        do {
            result = try await store.result(for: request.storeKey, ttl: configuration.resultTTL) { [self] in
                made.withLock { $0 = true }
                return try await shedder.run { try await makeInfo(request) }
            }
        } catch {
            throw ServiceError.from(error)
        }
        return infoAnswer(result, isStored: !made.withLock { $0 }, ifNoneMatch: ifNoneMatch)
    }

    private func infoAnswer(_ result: StoredResult, isStored: Bool, ifNoneMatch: String?) -> ThumbnailAnswer {
        let headers = ThumbnailAnswer.CachingHeaders(
            cacheControl: "public, max-age=\(configuration.cacheMaxAge)", variesOnAccept: false, isStored: isStored)
        if let ifNoneMatch, Self.matches(ifNoneMatch, etag: result.etag) {
            return .notModified(etag: result.etag, headers: headers)
        }
        return .image(result, headers: headers)
    }

    /// Fetches the source and describes it, within the processing time limit.
    private func makeInfo(_ request: InfoRequest) async throws -> StoredResult {
        let timeout = configuration.processingTimeout
        return try await withThrowingTaskGroup(of: StoredResult?.self) { group in
            group.addTask { try await self.makeInfoWithoutDeadline(request) }
            group.addTask {
                try await Task.sleep(for: .seconds(timeout))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else {
                throw ServiceError.timeout("describing the image took longer than \(Int(timeout)) s")
            }
            return result
        }
    }

    private func makeInfoWithoutDeadline(_ request: InfoRequest) async throws -> StoredResult {
        let source = request.path.source
        let data: Data
        do {
            data = try await tracer.withAnySpan("info") { span in
                span.attributes["server.address"] = source.host
                var imageRequest = ImageRequest(url: source)
                if !(tracer is NoOpTracer) { imageRequest.userInfo[.serviceContext] = span.context }
                return try await pipeline.data(for: imageRequest).0
            }
        } catch let error as ImagePipeline.Error where error.isCancellation {
            throw CancellationError()
        }
        let limits = pipeline.configuration.decodingOptions.limits
        let options = request.options
        let info = try await Self.offCooperativePool {
            try SourceInfo.make(from: data, options: options, limits: limits)
        }
        let validator =
            fetcher.validators.validator(for: source.absoluteString) ?? "sha256:" + SHA256State.hexDigest(of: data)
        let etag = "\"" + SHA256State.hexDigest(of: "\(request.key)\n\(validator)").prefix(32) + "\""
        return StoredResult(bytes: info.json, contentType: "application/json", etag: etag)
    }
}
