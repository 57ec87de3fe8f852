import Foundation

/// Which sources the service may fetch, checked for the source URL and again for every
/// redirect target.
///
/// - The scheme must be http or https.
/// - With an allow-list (``allowedSources`` not empty), the URL must match one entry: a URL
///   prefix (an entry with `://`; an entry naming only an origin gets a `/` appended, so
///   `https://img.example.com` does not match `https://img.example.com.evil.net/`), a host
///   name (exact, case-insensitive) or a host pattern `*.example.com` (any subdomain).
/// - The host is resolved and *every* address it resolves to must be a global one: loopback,
///   private, link-local, multicast and reserved addresses are refused, unless
///   ``allowsPrivateNetworks`` is set, or the host is one of ``privateHosts`` (an internal
///   origin named on purpose).
///
/// Limitation: the check resolves the name, then URLSession resolves it again to connect. A
/// DNS server that answers differently within that window (DNS rebinding) is not stopped by
/// this check; an allow-list of trusted hosts is.
///
/// Thread-safe (a value).
public struct SourcePolicy: Sendable {
    /// URL prefixes, host names and `*.domain` patterns a source must match; empty = any host.
    public var allowedSources: [String]
    /// Whether sources may resolve to loopback, private, link-local, multicast or reserved
    /// addresses. Default `false`.
    public var allowsPrivateNetworks: Bool
    /// Hosts (lowercased names or IP literals) that may resolve to non-global addresses even
    /// when ``allowsPrivateNetworks`` is `false`.
    public var privateHosts: Set<String>
    /// How host names are resolved.
    public var resolver: HostResolver

    /// Creates a policy; by default any public host, no private addresses.
    public init(allowedSources: [String] = [], allowsPrivateNetworks: Bool = false, privateHosts: Set<String> = [],
                resolver: HostResolver = HostResolver()) {
        self.allowedSources = allowedSources
        self.allowsPrivateNetworks = allowsPrivateNetworks
        self.privateHosts = Set(privateHosts.map { $0.lowercased() })
        self.resolver = resolver
    }

    /// Checks `url`; throws ``ServiceError`` 403 (`source_refused`) when it may not be fetched,
    /// 502 when its host does not resolve.
    public func check(_ url: URL) async throws(ServiceError) {
        try checkWithoutResolving(url)
        guard let host = url.host?.lowercased() else { throw .sourceRefused("the source has no host") }
        if allowsPrivateNetworks || privateHosts.contains(host) { return }
        for address in try await resolver.addresses(of: host) {
            let kind = address.count == 4 ? AddressClass.of(ipv4: address) : AddressClass.of(ipv6: address)
            guard kind == .global else {
                throw .sourceRefused("\(host) resolves to a \(kind.rawValue) address, which sources may not use")
            }
        }
    }

    /// The checks that need no resolution: scheme and allow-list.
    public func checkWithoutResolving(_ url: URL) throws(ServiceError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .sourceRefused("only http and https sources are fetched")
        }
        guard let host = url.host?.lowercased(), !host.isEmpty else { throw .sourceRefused("the source has no host") }
        guard allowedSources.isEmpty || allowedSources.contains(where: { Self.matches($0, url: url, host: host) }) else {
            throw .sourceRefused("\(host) is not on the source allow-list")
        }
    }

    private static func matches(_ entry: String, url: URL, host: String) -> Bool {
        let entry = entry.lowercased()
        if entry.contains("://") {
            var prefix = entry
            if let origin = URL(string: entry), origin.path.isEmpty { prefix += "/" }
            return url.absoluteString.lowercased().hasPrefix(prefix)
        }
        if entry.hasPrefix("*.") { return host.hasSuffix(String(entry.dropFirst())) }
        return host == entry
    }
}
