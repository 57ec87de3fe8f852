import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ImagePipeline {
    /// Why a request failed. Every case names the request and says what went wrong in words a
    /// person can act on (see ``description``).
    public enum Error: Swift.Error, Sendable, CustomStringConvertible {
        /// The data could not be loaded. `statusCode` is the HTTP status when the server
        /// answered with one outside 200...299; `underlying` is the loader's error.
        case dataLoadingFailed(request: ImageRequest, statusCode: Int?, underlying: any Swift.Error)
        /// ``ImageRequest/Options/returnCacheDataDontLoad`` was set and no cache had the image.
        case dataMissingInCache(request: ImageRequest)
        /// The source returned no bytes.
        case dataIsEmpty(request: ImageRequest)
        /// The response is larger than ``ImagePipeline/Configuration/maximumResponseDataSize``
        /// (known from Content-Length, or counted while receiving).
        case responseTooLarge(request: ImageRequest, limit: Int)
        /// The bytes are not a decodable image (or decoding was refused as unsafe).
        case decodingFailed(request: ImageRequest, underlying: ImageDecodingError)
        /// The image declares more pixels than the decoder limits allow.
        case imageTooLarge(request: ImageRequest, underlying: ImageDecodingError)
        /// A processor threw.
        case processingFailed(request: ImageRequest, processor: String, underlying: any Swift.Error)
        /// The request has no URL (or an unsupported scheme).
        case invalidRequest(request: ImageRequest, reason: String)
        /// The task was cancelled.
        case cancelled(request: ImageRequest)
        /// The pipeline was invalidated before the task finished.
        case pipelineInvalidated(request: ImageRequest)

        /// The request that failed.
        public var request: ImageRequest {
            switch self {
            case .dataLoadingFailed(let request, _, _), .dataMissingInCache(let request), .dataIsEmpty(let request),
                .responseTooLarge(let request, _), .decodingFailed(let request, _), .imageTooLarge(let request, _),
                .processingFailed(let request, _, _), .invalidRequest(let request, _), .cancelled(let request),
                .pipelineInvalidated(let request):
                request
            }
        }

        /// The HTTP status code, when the failure was an HTTP error response.
        public var statusCode: Int? {
            if case .dataLoadingFailed(_, let status, _) = self { return status }
            return nil
        }

        /// `true` for ``cancelled(request:)``.
        public var isCancellation: Bool {
            if case .cancelled = self { return true }
            return false
        }

        public var description: String {
            let subject = request.imageID ?? "a request without a URL"
            switch self {
            case .dataLoadingFailed(_, let status?, let underlying):
                let answer =
                    "Loading \(subject) failed: the server answered HTTP \(status) (\(HTTPURLResponse.localizedString(forStatusCode: status)))"
                // The loader's own error says the status again: add only what it says besides.
                switch underlying as? DataLoaderError {
                case .statusCode(status)?: return answer + "."
                case .retryAfter(status, let seconds)?: return answer + ", retry after \(Int(seconds.rounded(.up))) s."
                default: return answer + ". \(underlying)"
                }
            case .dataLoadingFailed(_, nil, let underlying):
                return "Loading \(subject) failed: \(Self.describe(underlying))"
            case .dataMissingInCache:
                return "\(subject) is not in the cache, and the request asked not to load it (returnCacheDataDontLoad)."
            case .dataIsEmpty:
                return "Loading \(subject) returned no data."
            case .responseTooLarge(_, let limit):
                return
                    "The response for \(subject) is larger than the limit of \(limit) bytes (maximumResponseDataSize)."
            case .decodingFailed(_, let underlying):
                return "Decoding \(subject) failed: \(underlying)"
            case .imageTooLarge(_, let underlying):
                return
                    "\(subject) is too large to decode: \(underlying) Raise the decoder limits or request a thumbnail."
            case .processingFailed(_, let processor, let underlying):
                return "Processing \(subject) with \(processor) failed: \(underlying)"
            case .invalidRequest(_, let reason):
                return "The request for \(subject) is invalid: \(reason)."
            case .cancelled:
                return "Loading \(subject) was cancelled."
            case .pipelineInvalidated:
                return "Loading \(subject) stopped: the pipeline was invalidated."
            }
        }

        private static func describe(_ error: any Swift.Error) -> String {
            if let error = error as? URLError {
                return "\(error.localizedDescription) (URLError \(error.code.rawValue))"
            }
            return String(describing: error)
        }
    }
}
