import Foundation

/// Which sources the service may fetch, checked for the source URL and again for every
/// redirect target.
///
/// - The URL is made canonical first (``CanonicalURL``): the allow-list and the address check
///   see the spelling the fetch uses, so dot segments, escapes, user names and other spellings
///   cannot reach outside an allowed prefix. A URL that cannot be made canonical is refused.
/// - The scheme must be http or https.
/// - With an allow-list (``allowedSources`` not empty), the URL must match one entry: a URL
///   prefix (an entry with `://`, itself made canonical; an entry naming only an origin gets a
///   `/`, so `https://img.example.com` does not match `https://img.example.com.evil.net/`, and
///   a prefix that does not end in `/` matches only itself or what follows it after a `/` or
///   `?`, so `https://h/public` does not match `https://h/publicity`), a host name (exact,
///   case-insensitive, without a trailing dot) or a host pattern `*.example.com` (any
///   subdomain).
/// - The host is resolved and *every* address it resolves to must be a global one: loopback,
///   private, link-local, multicast and reserved addresses are refused, unless
///   ``allowsPrivateNetworks`` is set, or the host is one of ``privateHosts`` (an internal
///   origin named on purpose).
///
/// The fetch connects to the address this check accepted (``resolve(_:)``, through
/// ``SourceFetcher``'s pinned connections): the name is not resolved a second time, so a DNS
/// server that answers differently after the check (DNS rebinding) is not reached.
///
/// Thread-safe (a value).
public struct SourcePolicy: Sendable {
    /// URL prefixes, host names and `*.domain` patterns a source must match; empty = any host.
    public var allowedSources: [String] {
        didSet { allowList = allowedSources.map(SourceAllowListEntry.init) }
    }
    /// ``allowedSources``, each read once.
    private var allowList: [SourceAllowListEntry]
    /// Whether sources may resolve to loopback, private, link-local, multicast or reserved
    /// addresses. Default `false`.
    public var allowsPrivateNetworks: Bool
    /// Hosts (lowercased names or IP literals) that may resolve to non-global addresses even
    /// when ``allowsPrivateNetworks`` is `false`.
    public var privateHosts: Set<String>
    /// How host names are resolved.
    public var resolver: HostResolver

    /// Creates a policy; by default any public host, no private addresses.
    public init(
        allowedSources: [String] = [], allowsPrivateNetworks: Bool = false, privateHosts: Set<String> = [],
        resolver: HostResolver = HostResolver()
    ) {
        self.allowedSources = allowedSources
        self.allowList = allowedSources.map(SourceAllowListEntry.init)
        self.allowsPrivateNetworks = allowsPrivateNetworks
        self.privateHosts = Set(privateHosts.map { $0.lowercased() })
        self.resolver = resolver
    }

    /// Checks `url` and returns its canonical form, the URL to fetch; throws ``ServiceError``
    /// 403 (`source_refused`) when it cannot be made canonical or may not be fetched, 502 when
    /// its host does not resolve.
    @discardableResult
    public func check(_ url: URL) async throws(ServiceError) -> URL {
        try await resolve(url).url
    }

    /// Checks `url` as ``check(_:)`` does and returns its canonical form with the address to
    /// connect to: the first of the addresses the check accepted. Fetching that address, and
    /// no other, leaves no window for a second DNS answer.
    public func resolve(_ url: URL) async throws(ServiceError) -> (url: URL, address: HostResolver.Address) {
        let url = try checkWithoutResolving(url)
        guard let host = url.host?.lowercased() else { throw .sourceRefused("the source has no host") }
        let addresses = try await resolver.addresses(of: host)
        if !(allowsPrivateNetworks || privateHosts.contains(host)) {
            for address in addresses {
                let kind = address.count == 4 ? AddressClass.of(ipv4: address) : AddressClass.of(ipv6: address)
                guard kind == .global else {
                    throw .sourceRefused("\(host) resolves to a \(kind.rawValue) address, which sources may not use")
                }
            }
        }
        guard let first = addresses.first else { throw .sourceError("the source host \(host) has no IP address") }
        return (url, first)
    }

    /// The checks that need no resolution: the canonical form, the scheme and the allow-list.
    /// Returns the canonical URL.
    @discardableResult
    public func checkWithoutResolving(_ url: URL) throws(ServiceError) -> URL {
        let canonical: String
        do {
            canonical = try CanonicalURL.canonicalString(url.absoluteString)
        } catch {
            // A client's URL was made canonical when its path was parsed (400 there); one that
            // reaches here is a redirect target, which the source chose: refused.
            throw .sourceRefused(error.message)
        }
        guard let url = URL(string: canonical), let host = url.host?.lowercased(), !host.isEmpty else {
            throw .sourceRefused("the source has no host")
        }
        guard
            allowList.isEmpty || allowList.contains(where: { $0.matches(canonical: canonical, host: host) })
        else {
            throw .sourceRefused("\(canonical) is not on the source allow-list")
        }
        return url
    }

    /// The checks of ``checkWithoutResolving(_:)`` for a source already in its canonical
    /// spelling (``ThumbnailPath/canonicalSource``), without parsing it again: the allow-list,
    /// matched against the spelling and its host.
    public func checkCanonical(_ canonical: String) throws(ServiceError) {
        guard !allowList.isEmpty else { return }
        let host = CanonicalURL.host(ofCanonical: canonical)
        guard !host.isEmpty else { throw .sourceRefused("the source has no host") }
        guard allowList.contains(where: { $0.matches(canonical: canonical, host: host) }) else {
            throw .sourceRefused("\(canonical) is not on the source allow-list")
        }
    }
}
