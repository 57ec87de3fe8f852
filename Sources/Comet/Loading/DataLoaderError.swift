import Foundation

/// Errors the built-in ``DataLoader`` reports (wrapped in ``ImagePipeline/Error/dataLoadingFailed(request:statusCode:underlying:)``).
public enum DataLoaderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with a status outside 200...299.
    case statusCode(Int)
    /// The server answered 429 or 503 with a `Retry-After` of `seconds` (a date is converted to
    /// the seconds until it). ``ImagePipeline/RetryPolicy`` waits that long before trying again.
    case retryAfter(statusCode: Int, seconds: TimeInterval)
    /// The body ended before the length the server announced (a dropped connection).
    case incompleteBody(received: Int, expected: Int)
    /// The body is larger than the loader's `maximumResponseDataSize`.
    case responseTooLarge(limit: Int)
    /// The URL is missing or its scheme is not http, https, file or data.
    case unsupportedURL(URL?)
    /// `file:` URLs are disabled in the loader's configuration.
    case fileURLsDisabled(URL)
    /// A `data:` URL could not be decoded.
    case invalidDataURL
    /// An `https` URL redirected to an `http` one and the loader's ``RedirectPolicy`` refuses
    /// such downgrades (the default).
    case insecureRedirect(from: URL, to: URL)

    /// The HTTP status of a ``statusCode(_:)`` or ``retryAfter(statusCode:seconds:)`` failure.
    public var httpStatusCode: Int? {
        switch self {
        case .statusCode(let code), .retryAfter(let code, _): code
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .statusCode(let code): "the server answered HTTP \(code)"
        case .retryAfter(let code, let seconds):
            "the server answered HTTP \(code), retry after \(Int(seconds.rounded(.up))) s"
        case .incompleteBody(let received, let expected): "the connection ended after \(received) of \(expected) bytes"
        case .responseTooLarge(let limit): "the response is larger than \(limit) bytes"
        case .unsupportedURL(let url):
            "unsupported URL \(url?.absoluteString ?? "(none)") (http, https, file and data URLs are supported)"
        case .fileURLsDisabled(let url): "file URLs are disabled (\(url.path))"
        case .invalidDataURL: "the data: URL is malformed"
        case .insecureRedirect(let from, let to):
            "refused the redirect from \(from.absoluteString) to \(to.absoluteString) (https to http)"
        }
    }
}
