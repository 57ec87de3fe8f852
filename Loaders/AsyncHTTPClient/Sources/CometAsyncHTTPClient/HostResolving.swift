import Foundation

/// Checks each URL a load is about to request and chooses the IP address its connection goes
/// to: the hook that closes the window between checking a host's addresses and connecting to
/// one of them (DNS rebinding), and that lets a server apply its own source rules to every
/// redirect target.
///
/// ``AsyncHTTPClientDataLoader`` asks before every request of a load (the first and each
/// redirect's, after ``Comet/RedirectPolicy`` allowed it) and requests ``ResolvedURL/url`` over
/// a connection to exactly ``ResolvedURL/address``, keeping the URL's host in the `Host` header
/// and as the TLS server name (certificates are checked against the host, not the address).
/// Throwing ends the load with that error.
///
/// Implementations must be thread-safe; they are called from Swift concurrency.
public protocol HostResolving: Sendable {
    /// Where the request for `url` goes; throw to refuse it.
    func resolve(_ url: URL) async throws -> ResolvedURL
}

/// A URL to request and the address to connect to for it (``HostResolving``).
public struct ResolvedURL: Sendable, Hashable {
    /// The URL to request: the one asked about, or an equivalent spelling of it (its canonical
    /// form, say). Its host is the `Host` header and the TLS server name.
    public var url: URL
    /// The IP address to connect to: an IPv4 or IPv6 literal, without brackets.
    public var address: String

    /// Creates a resolution of `url` to `address`.
    public init(url: URL, address: String) {
        self.url = url
        self.address = address
    }
}
