import Foundation

/// A failure the service answers with: an HTTP status, a stable machine-readable code and a
/// sentence for people. Sent as JSON: `{"error":{"status":403,"code":"bad_signature","message":"…"}}`.
///
/// Thread-safe (a value).
public struct ServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status.
    public var status: Int
    /// A stable code, e.g. `bad_signature`, `source_refused`, `too_large`.
    public var code: String
    /// What went wrong, in words.
    public var message: String
    /// Seconds after which a retry may succeed (sent as `Retry-After`), for 503.
    public var retryAfter: Int?

    /// Creates an error.
    public init(status: Int, code: String, message: String, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    /// 400: the options segment is malformed.
    public static func badOptions(_ message: String) -> ServiceError {
        ServiceError(status: 400, code: "bad_options", message: message)
    }
    /// 400: the path is not `/{signature}/{options}/{source}[.ext]` or the source is not a URL.
    public static func badURL(_ message: String) -> ServiceError {
        ServiceError(status: 400, code: "bad_url", message: message)
    }
    /// 403: the signature does not match.
    public static let badSignature = ServiceError(
        status: 403, code: "bad_signature",
        message: "the signature does not match the options and source")
    /// 403: the URL gives one of imgproxy's security options (`msr`, `msfs`, `maf`, `mafr`, `mrd`),
    /// which the server does not allow (imgproxy's status for them).
    public static let securityOptionsRefused = ServiceError(
        status: 403, code: "security_options_refused",
        message: "msr, msfs, maf, mafr and mrd are not allowed on this server (comet-server --allow-security-options)")
    /// 403: the source is not allowed (allow-list or address class).
    public static func sourceRefused(_ message: String) -> ServiceError {
        ServiceError(status: 403, code: "source_refused", message: message)
    }
    /// 404: the source answered 404 or 410.
    public static func notFound(_ message: String) -> ServiceError {
        ServiceError(status: 404, code: "not_found", message: message)
    }
    /// 422: the source (bytes, pixels or frames) or the output is larger than allowed
    /// (imgproxy's status for a source over its limits).
    public static func tooLarge(_ message: String) -> ServiceError {
        ServiceError(status: 422, code: "too_large", message: message)
    }
    /// 422: the result is asked for in an image format the server does not write (`.svg`,
    /// `.tiff`…), imgproxy's status for it.
    public static func unsupportedFormat(_ message: String) -> ServiceError {
        ServiceError(status: 422, code: "unsupported_format", message: message)
    }
    /// 422: the source is not a decodable image.
    public static func undecodable(_ message: String) -> ServiceError {
        ServiceError(status: 422, code: "undecodable", message: message)
    }
    /// 502: the source failed (an error status, a refused connection, too many redirects).
    public static func sourceError(_ message: String) -> ServiceError {
        ServiceError(status: 502, code: "source_error", message: message)
    }
    /// 503: too much work queued already.
    public static func overloaded(retryAfter: Int) -> ServiceError {
        ServiceError(
            status: 503, code: "overloaded", message: "the server is at its work and queue limits; retry later",
            retryAfter: retryAfter)
    }
    /// 504: the source or the processing took longer than allowed.
    public static func timeout(_ message: String) -> ServiceError {
        ServiceError(status: 504, code: "timeout", message: message)
    }
    /// 500: a failure of the service itself.
    public static func `internal`(_ message: String) -> ServiceError {
        ServiceError(status: 500, code: "internal", message: message)
    }

    /// The JSON body: `{"error":{"status":…,"code":"…","message":"…"}}`.
    public var json: String {
        struct Body: Encodable {
            struct Detail: Encodable { let status: Int; let code: String; let message: String }
            let error: Detail
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data = (try? encoder.encode(Body(error: .init(status: status, code: code, message: message)))) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    public var description: String { "\(status) \(code): \(message)" }
}
