import AsyncHTTPClient
import Comet
import Foundation
import NIOCore

extension AsyncHTTPClientDataLoader {
    /// Settings fixed when the loader is created. The defaults are ``Comet/DataLoader``'s.
    public struct Configuration: Sendable {
        /// Seconds a request may wait for more data (the first byte of the answer, or the next
        /// chunk of the body) before it fails with `URLError(.timedOut)`. Default 30.
        public var timeoutForRequest: TimeInterval = 30
        /// Seconds a whole load may take, redirects included. Default 300.
        public var timeoutForResource: TimeInterval = 300
        /// Seconds a connection may take to open. Default 10.
        public var timeoutForConnect: TimeInterval = 10
        /// The largest response body accepted, in bytes; `nil` for no limit. Default 100 MiB.
        public var maximumResponseDataSize: Int? = 100 << 20
        /// Whether `file:` URLs may be loaded. Default `true`; turn it off when URLs come from
        /// untrusted input.
        public var allowsFileURLs = true
        /// Headers added to every HTTP request that does not set them itself.
        public var additionalHeaders: [String: String] = [:]
        /// How redirects are followed. Default: credentials (`Authorization`, `Cookie`) are
        /// dropped whenever scheme, host or port changes, and https → http is refused.
        public var redirectPolicy = RedirectPolicy()
        /// The most redirects one load follows; one more fails with
        /// `URLError(.httpTooManyRedirects)`. Default 10.
        public var maximumRedirects = 10
        /// Open HTTP/1.1 connections per host (more wait for one). Default 8.
        public var maximumConnectionsPerHost = 8
        /// Checks every URL a load requests (the first and each redirect's) and chooses the
        /// address its connection goes to. Default `nil`: AsyncHTTPClient resolves host names
        /// itself.
        public var hostResolver: (any HostResolving)?

        /// Creates a configuration with the documented defaults.
        public init() {}

        func clientConfiguration(dnsOverride: [String: String]) -> HTTPClient.Configuration {
            var configuration = HTTPClient.Configuration(
                // The loader follows redirects itself, under Comet's RedirectPolicy.
                redirectConfiguration: .disallow,
                timeout: .init(
                    connect: .milliseconds(Int64(timeoutForConnect * 1000)),
                    read: .milliseconds(Int64(timeoutForRequest * 1000))),
                connectionPool: .init(
                    idleTimeout: .seconds(60),
                    concurrentHTTP1ConnectionsPerHostSoftLimit: maximumConnectionsPerHost),
                decompression: .disabled
            )
            configuration.dnsOverride = dnsOverride
            // A refused or unreachable connection fails the load at once, as with URLSession,
            // instead of being retried until the connect timeout; the pipeline's RetryPolicy
            // decides about another attempt.
            configuration.connectionPool.retryConnectionEstablishment = false
            return configuration
        }
    }
}
