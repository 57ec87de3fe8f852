import AsyncHTTPClient
import Comet
import Foundation
import NIOCore
import NIOPosix
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``Comet/DataLoading`` built on AsyncHTTPClient: http(s) over SwiftNIO's event loops, `file:`
/// and `data:` URLs as ``Comet/DataLoader`` reads them.
///
/// It keeps ``Comet/DataLoader``'s contract, so a pipeline behaves the same with either:
/// - Streams the body: each chunk reaches the pipeline as it arrives, on the connection's event
///   loop, with no hop to another thread (progress and progressive decoding see it at once).
/// - Validates status codes: anything outside 200...299 fails with
///   ``Comet/DataLoaderError/statusCode(_:)`` (``Comet/DataLoaderError/retryAfter(statusCode:seconds:)``
///   for 429 and 503 with `Retry-After`), and reads no more of that body.
/// - Enforces ``Configuration-swift.struct/maximumResponseDataSize`` from `Content-Length` before the
///   body and while receiving; a body shorter than its `Content-Length` fails with
///   ``Comet/DataLoaderError/incompleteBody(received:expected:)``.
/// - Follows redirects itself, under ``Configuration-swift.struct/redirectPolicy`` (credentials
///   never reach another origin, https never downgrades), at most
///   ``Configuration-swift.struct/maximumRedirects`` of them.
/// - Always has timeouts: connect, idle (``Configuration-swift.struct/timeoutForRequest``) and a
///   deadline for the whole load (``Configuration-swift.struct/timeoutForResource``).
/// - Reports network failures as the `URLError`s URLSession reports for them (`.timedOut`,
///   `.networkConnectionLost`, `.cannotConnectToHost`, `.cancelled` …), so
///   ``Comet/ImagePipeline/RetryPolicy`` retries the same failures with either loader.
/// - Resumable downloads work unchanged: the pipeline's `Range`/`If-Range` headers are sent and
///   the `206` answer is passed on with its headers.
/// - With a ``Configuration-swift.struct/hostResolver``, every request (the first and each
///   redirect's) is first checked by the resolver, and its connection goes to the address the
///   resolver returned, with the URL's own `Host` header and TLS server name: nothing resolves
///   the name a second time.
///
/// Unlike ``Comet/DataLoader`` it answers no authentication challenge: set the `Authorization`
/// header on the request.
///
/// Thread-safe. Its `HTTPClient` (its own, on the given event loop group) shuts down when the
/// loader is released, cancelling loads still running; ``shutdown()`` does it explicitly.
public final class AsyncHTTPClientDataLoader: DataLoading, Sendable {
    /// The loader's settings.
    public let configuration: Configuration
    private let client: HTTPClient
    private let pinnedClients: PinnedClients
    private let localLoader: DataLoader

    /// Creates a loader with its own `HTTPClient` on `eventLoopGroup` (default: NIO's shared
    /// singleton group, which Hummingbird and Vapor also use).
    public init(
        configuration: Configuration = Configuration(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.configuration = configuration
        let clientConfiguration = configuration.clientConfiguration(dnsOverride: [:])
        client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: clientConfiguration)
        pinnedClients = PinnedClients(eventLoopGroup: eventLoopGroup, configuration: configuration)
        var local = DataLoader.Configuration()
        local.allowsFileURLs = configuration.allowsFileURLs
        local.maximumResponseDataSize = configuration.maximumResponseDataSize
        localLoader = DataLoader(configuration: local)
    }

    deinit {
        // Loads still running hold the loader through their pipeline, so none is cut short here
        // by accident; shutting down resolves the client's own reference cycle.
        _ = client.shutdown()
        pinnedClients.shutDownAll()
    }

    /// Shuts the loader's clients down, failing the loads still running with `URLError(.cancelled)`.
    /// Loads started afterwards fail the same way.
    public func shutdown() async throws {
        pinnedClients.shutDownAll()
        try await client.shutdown()
    }

    public func loadData(
        with request: URLRequest,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask {
        switch request.url?.scheme?.lowercased() {
        case "http", "https":
            var request = request
            for (name, value) in configuration.additionalHeaders where request.value(forHTTPHeaderField: name) == nil {
                request.setValue(value, forHTTPHeaderField: name)
            }
            let load = HTTPLoad(
                request: request, configuration: configuration, connector: connector,
                handlers: .init(didReceiveData: didReceiveData, completion: completion))
            load.start()
            return load
        default:
            // file:, data: and the unsupported schemes, with DataLoader's rules and errors.
            return localLoader.loadData(with: request, didReceiveData: didReceiveData, completion: completion)
        }
    }

    private var connector: HTTPLoad.Connector {
        HTTPLoad.Connector(client: client, pinnedClients: pinnedClients, resolver: configuration.hostResolver)
    }
}
