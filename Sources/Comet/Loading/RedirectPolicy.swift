import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What ``DataLoader`` does when a server redirects: a pure decision on the requests, so it can
/// be checked without a network.
///
/// - A redirect to another *origin* (scheme, host or port, with the scheme's default port filled
///   in) loses the credentials of the request it came from: the `Authorization`, `Cookie` and
///   `Proxy-Authorization` headers. Cookies the session stores are scoped by the cookie storage
///   itself; these are the ones the caller set on the request.
/// - A redirect from `https` to `http` is refused (the load fails with
///   ``DataLoaderError/insecureRedirect(from:to:)``) unless ``allowsInsecureRedirects`` is `true`;
///   even then it loses the credentials, as any change of scheme does.
/// - A redirect within the same origin keeps every header.
///
/// Thread-safe (a value).
public struct RedirectPolicy: Sendable, Hashable {
    /// Whether an `https` page may redirect to an `http` one. Default `false`.
    public var allowsInsecureRedirects: Bool

    /// The headers removed when a redirect changes origin.
    public static let credentialHeaders = ["Authorization", "Cookie", "Proxy-Authorization"]

    /// Creates a policy; by default https → http redirects are refused.
    public init(allowsInsecureRedirects: Bool = false) {
        self.allowsInsecureRedirects = allowsInsecureRedirects
    }

    /// The outcome of one redirect.
    public enum Decision: Sendable, Equatable {
        /// Follow the redirect with this request.
        case follow(URLRequest)
        /// Do not follow: the redirect would downgrade https to http.
        case refuse
    }

    /// Decides how to follow a redirect from `previous` (the request that was answered with the
    /// redirect) to `proposed` (the request the session built for the new location).
    /// `original`, when given, is the first request of the chain: credentials are dropped when
    /// the new origin differs from either.
    public func decide(from previous: URL?, original: URL? = nil, to proposed: URLRequest) -> Decision {
        guard let target = proposed.url else { return .refuse }
        if !allowsInsecureRedirects, let previous, Self.scheme(of: previous) == "https",
            Self.scheme(of: target) != "https"
        {
            return .refuse
        }
        let sources = [previous, original].compactMap { $0 }
        guard sources.contains(where: { !Self.isSameOrigin($0, target) }) else { return .follow(proposed) }
        var request = proposed
        for header in Self.credentialHeaders { request.setValue(nil, forHTTPHeaderField: header) }
        return .follow(request)
    }

    /// Whether two URLs share scheme, host (case-insensitively) and port (the default port of
    /// the scheme when none is written).
    public static func isSameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        scheme(of: lhs) == scheme(of: rhs)
            && lhs.host?.lowercased() == rhs.host?.lowercased()
            && port(of: lhs) == port(of: rhs)
    }

    private static func scheme(of url: URL) -> String? { url.scheme?.lowercased() }

    private static func port(of url: URL) -> Int? {
        if let port = url.port { return port }
        switch scheme(of: url) {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }
}
