/// One entry of ``SourcePolicy/allowedSources``, read once when the list is set, so that a
/// request's check compares strings and makes nothing canonical again.
///
/// Thread-safe (a value).
enum SourceAllowListEntry: Sendable, Equatable {
    /// A canonical URL prefix ending in `/`: any source that starts with it.
    case directory(String)
    /// A canonical URL prefix without a final `/`: itself, or what follows it after `/` or `?`.
    case resource(String)
    /// A lower-case host name without its trailing dot, matched exactly.
    case host(String)
    /// `*.example.com`: any host ending in `.example.com`.
    case subdomains(ofSuffix: String)
    /// An entry with `://` that cannot be made canonical: it matches nothing.
    case nothing

    /// Reads an entry as ``SourcePolicy`` documents it.
    init(_ entry: String) {
        if entry.contains("://") {
            guard let prefix = try? CanonicalURL.canonicalString(entry) else {
                self = .nothing
                return
            }
            self = prefix.hasSuffix("/") ? .directory(prefix) : .resource(prefix)
            return
        }
        var name = entry.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        self = name.hasPrefix("*.") ? .subdomains(ofSuffix: String(name.dropFirst())) : .host(name)
    }

    /// Whether the source spelled `canonical`, whose host is `host`, matches.
    func matches(canonical: String, host: String) -> Bool {
        switch self {
        case .directory(let prefix):
            return canonical.hasPrefix(prefix)
        case .resource(let prefix):
            guard canonical.hasPrefix(prefix) else { return false }
            let rest = canonical.utf8.dropFirst(prefix.utf8.count)
            return rest.isEmpty || rest.first == UInt8(ascii: "/") || rest.first == UInt8(ascii: "?")
        case .host(let name):
            return host == name
        case .subdomains(let suffix):
            return host.hasSuffix(suffix)
        case .nothing:
            return false
        }
    }
}
