import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Turns what a request received into a `Result`, as Alamofire 3's `ResponseSerializer`.
///
/// The closure gets the request, the response, the body and the transport or validation error
/// (`nil` when there was none) and runs off the main queue.
public struct ResponseSerializer<Value, Error: Swift.Error>: Sendable {
    /// The serialization closure.
    public let serializeResponse: @Sendable (URLRequest?, HTTPURLResponse?, Data?, NSError?) -> Result<Value, Error>

    /// Creates a serializer from its closure.
    public init(
        serializeResponse: @escaping @Sendable (URLRequest?, HTTPURLResponse?, Data?, NSError?) -> Result<Value, Error>
    ) {
        self.serializeResponse = serializeResponse
    }
}
