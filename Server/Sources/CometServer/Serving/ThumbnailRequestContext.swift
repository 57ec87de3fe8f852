import Hummingbird
import NIOCore

/// The request context of the service's routes: Hummingbird's basics plus the connection the
/// request came on, so that a request's work can be cancelled when its client goes away.
///
/// Thread-safe (a value).
public struct ThumbnailRequestContext: RequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The client's connection.
    public let channel: any Channel

    /// A context for a request that arrived on `source.channel`.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
