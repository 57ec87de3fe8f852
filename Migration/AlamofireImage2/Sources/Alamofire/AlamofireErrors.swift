import Comet
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `NSError`s the shim reports, with Alamofire 3's and AlamofireImage 2's domains and codes.
enum AlamofireErrors {
    /// Alamofire 3's error domain (validation failures).
    static let domain = "com.alamofire.error"
    /// Alamofire 3: the response's content type is not one the request accepts.
    static let contentTypeValidationFailed = -6002
    /// Alamofire 3: the status code is outside 200..<300.
    static let statusCodeValidationFailed = -6003
    /// The user-info key holding the refused status code.
    static let statusCodeKey = "StatusCode"

    static func statusCode(_ code: Int) -> NSError {
        NSError(
            domain: domain, code: statusCodeValidationFailed,
            userInfo: [
                NSLocalizedFailureReasonErrorKey: "Response status code was unacceptable: \(code)",
                NSLocalizedDescriptionKey: "Response status code was unacceptable: \(code)",
                statusCodeKey: code,
            ])
    }

    static func contentType(_ mimeType: String?, acceptable: [String]) -> NSError {
        let reason =
            "Response content type \"\(mimeType ?? "(none)")\" does not match any acceptable content types: \(acceptable)"
        return NSError(
            domain: domain, code: contentTypeValidationFailed,
            userInfo: [NSLocalizedFailureReasonErrorKey: reason, NSLocalizedDescriptionKey: reason])
    }

    static func urlError(_ code: Int, _ reason: String) -> NSError {
        NSError(
            domain: NSURLErrorDomain, code: code,
            userInfo: [NSLocalizedFailureReasonErrorKey: reason, NSLocalizedDescriptionKey: reason])
    }

    /// A request cancelled before it finished (NSURLErrorCancelled, -999).
    static func cancelled(_ url: URL?) -> NSError {
        urlError(NSURLErrorCancelled, "cancelled \(url?.absoluteString ?? "(no URL)")")
    }

    /// Translates what Comet's `DataLoader` reports into the `NSError` Alamofire would give.
    static func translate(_ error: any Swift.Error) -> NSError {
        guard let error = error as? DataLoaderError else { return error as NSError }
        switch error {
        case .statusCode(let code), .retryAfter(let code, _): return statusCode(code)
        case .incompleteBody: return urlError(NSURLErrorNetworkConnectionLost, error.description)
        case .responseTooLarge: return urlError(NSURLErrorDataLengthExceedsMaximum, error.description)
        case .unsupportedURL, .fileURLsDisabled: return urlError(NSURLErrorUnsupportedURL, error.description)
        case .invalidDataURL: return urlError(NSURLErrorBadURL, error.description)
        case .insecureRedirect: return urlError(NSURLErrorSecureConnectionFailed, error.description)
        }
    }
}
