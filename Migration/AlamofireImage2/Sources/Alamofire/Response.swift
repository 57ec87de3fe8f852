import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a serialized request produced: the request, the HTTP response and the bytes (when they
/// arrived), and the serialized `result`.
public struct Response<Value, Error: Swift.Error> {
    /// The URL request that was sent.
    public let request: URLRequest?
    /// The server's response; `nil` when no successful response arrived (a transport error, a
    /// cancellation, a status the loader refused, or an image served from the cache).
    public let response: HTTPURLResponse?
    /// The response body; `nil` when none arrived.
    public let data: Data?
    /// The serialized value or the error.
    public let result: Result<Value, Error>

    /// Creates a response.
    public init(request: URLRequest?, response: HTTPURLResponse?, data: Data?, result: Result<Value, Error>) {
        self.request = request
        self.response = response
        self.data = data
        self.result = result
    }
}

extension Response: @unchecked Sendable where Value: Sendable, Error: Sendable {}
// URLRequest/HTTPURLResponse/Data are immutable here (the struct's fields are `let` and
// HTTPURLResponse is never mutated after URLSession creates it); the payloads must be Sendable.

extension Response: CustomStringConvertible, CustomDebugStringConvertible {
    /// The result's description (`SUCCESS` or `FAILURE`).
    public var description: String { result.description }

    /// The request, response, data size and result, one per line.
    public var debugDescription: String {
        [
            "[Request]: \(request.map { "\($0)" } ?? "nil")",
            "[Response]: \(response.map { "\($0.statusCode) \($0.url?.absoluteString ?? "")" } ?? "nil")",
            "[Data]: \(data?.count ?? 0) bytes",
            "[Result]: \(result.debugDescription)",
        ].joined(separator: "\n")
    }
}
