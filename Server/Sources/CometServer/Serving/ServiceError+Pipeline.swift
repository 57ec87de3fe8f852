import Comet
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ServiceError {
    /// The answer for a failure of making a result: pipeline errors by their cause (a source's
    /// 404/410 → 404, other statuses and network failures → 502, timeouts → 504, too many bytes or
    /// pixels → 422, undecodable → 422), a ``ServiceError`` as it is, anything else 500.
    public static func from(_ error: any Error) -> ServiceError {
        if let error = error as? ServiceError { return error }
        if let error = error as? ImagePipeline.Error { return from(error) }
        if let error = error as? ImageEncodingError { return .internal("encoding failed: \(error)") }
        if let error = error as? URLError { return from(error) }
        return .internal("\(error)")
    }

    private static func from(_ error: ImagePipeline.Error) -> ServiceError {
        switch error {
        case .dataLoadingFailed(_, let status?, _):
            if status == 404 || status == 410 { return .notFound("the source answered HTTP \(status)") }
            return .sourceError("the source answered HTTP \(status)")
        case .dataLoadingFailed(_, nil, let underlying):
            switch underlying {
            case let error as ServiceError: return error
            case let error as URLError: return from(error)
            case let error as DataLoaderError: return .sourceError("the source failed: \(error)")
            default: return .sourceError("the source failed: \(underlying)")
            }
        case .responseTooLarge(_, let limit):
            return .tooLarge("the source is larger than \(limit) bytes")
        case .imageTooLarge(_, let underlying):
            return .tooLarge("the source image is too large: \(underlying)")
        case .decodingFailed(_, let underlying):
            return .undecodable("the source is not a decodable image: \(underlying)")
        case .dataIsEmpty:
            return .undecodable("the source is empty")
        case .processingFailed(_, let processor, let underlying):
            return .undecodable("processing with \(processor) failed: \(underlying)")
        case .invalidRequest(_, let reason):
            return .badURL(reason)
        case .dataMissingInCache, .cancelled, .pipelineInvalidated:
            return .internal("the work was cancelled")
        }
    }

    private static func from(_ error: URLError) -> ServiceError {
        switch error.code {
        case .timedOut: .timeout("the source did not answer within the time limit")
        case .cancelled: .internal("the work was cancelled")
        default: .sourceError("the source could not be reached (\(error.code.rawValue))")
        }
    }
}
