import AsyncHTTPClient
import Comet
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Translates AsyncHTTPClient's and SwiftNIO's errors into the errors ``Comet/DataLoader``
/// reports for the same failure, so that retries, logs and callers see one vocabulary whichever
/// loader ran. The original error stays in the `URLError`'s `NSUnderlyingErrorKey`.
enum LoadFailure {
    static func map(_ error: any Error, url: URL, received: Int, expected: Int?) -> any Error {
        switch error {
        case is DataLoaderError, is URLError:
            return error
        case let error as HTTPClientError:
            return map(error, url: url, received: received, expected: expected)
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED, EHOSTUNREACH, ENETUNREACH: return urlError(.cannotConnectToHost, url, error)
            case ETIMEDOUT: return urlError(.timedOut, url, error)
            default: return lost(url: url, received: received, expected: expected, error)
            }
        case is NIOConnectionError:
            return urlError(.cannotConnectToHost, url, error)
        case let error as ChannelError:
            if case .connectTimeout = error { return urlError(.timedOut, url, error) }
            return lost(url: url, received: received, expected: expected, error)
        case is NIOSSLError, is BoringSSLError:
            return urlError(.secureConnectionFailed, url, error)
        default:
            return lost(url: url, received: received, expected: expected, error)
        }
    }

    private static func map(_ error: HTTPClientError, url: URL, received: Int, expected: Int?) -> any Error {
        switch error {
        case .cancelled, .alreadyShutdown:
            return urlError(.cancelled, url, error)
        case .readTimeout, .writeTimeout, .connectTimeout, .deadlineExceeded, .tlsHandshakeTimeout,
            .getConnectionFromPoolTimeout:
            return urlError(.timedOut, url, error)
        case .remoteConnectionClosed, .bodyLengthMismatch:
            return lost(url: url, received: received, expected: expected, error)
        case .invalidURL, .emptyHost, .emptyScheme:
            return DataLoaderError.unsupportedURL(url)
        default:
            return urlError(.badServerResponse, url, error)
        }
    }

    /// A connection that ended early: the short body when its length was announced (as
    /// DataLoader reports a clean close mid-body), else URLSession's lost connection.
    private static func lost(url: URL, received: Int, expected: Int?, _ error: any Error) -> any Error {
        if let expected, received < expected {
            return DataLoaderError.incompleteBody(received: received, expected: expected)
        }
        return urlError(.networkConnectionLost, url, error)
    }

    private static func urlError(_ code: URLError.Code, _ url: URL, _ underlying: any Error) -> URLError {
        URLError(code, userInfo: [NSURLErrorFailingURLErrorKey: url, NSUnderlyingErrorKey: underlying])
    }
}
