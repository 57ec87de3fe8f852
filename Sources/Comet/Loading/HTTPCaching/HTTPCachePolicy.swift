import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP caching rules of ``HTTPCachingDataLoader`` (RFC 9111, as a private cache), as pure
/// functions of a request, a stored entry and the time: what may be stored, how long an entry
/// stays fresh, and what a load does with what is stored.
struct HTTPCachePolicy: Sendable {
    /// What a load does.
    enum Decision: Equatable {
        /// Load from the network; `stores`: keep the response if it may be kept.
        case load(stores: Bool)
        /// Deliver the stored entry without touching the network.
        case useStored
        /// Ask the origin whether the stored entry is still good with this conditional request
        /// (a 304 keeps it; anything else replaces it).
        case revalidate(URLRequest)
        /// Fail: the request allows only stored data and there is none.
        case failNotStored
    }

    /// The response's `Cache-Control` directives that matter here.
    struct CacheControl: Equatable {
        var noStore = false
        var noCache = false
        var maxAge: TimeInterval?

        init(_ header: String?) {
            for directive in (header ?? "").split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces).lowercased()
                }
                switch parts.first {
                case "no-store": noStore = true
                case "no-cache": noCache = true
                case "max-age" where parts.count == 2:
                    // An invalid max-age counts as stale (RFC 9111, 4.2.1).
                    maxAge = TimeInterval(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))) ?? 0
                default: break
                }
            }
        }
    }

    /// A response without `max-age` or `Expires` but with `Last-Modified` stays fresh for this
    /// fraction of the time between its last modification and its date.
    let heuristicFraction: Double
    /// The longest such heuristic freshness.
    let maximumHeuristicLifetime: TimeInterval

    /// Whether `request` takes part in caching at all: a GET without a range or validators of
    /// its own (those answers are for the caller alone).
    static func isCacheable(_ request: URLRequest) -> Bool {
        guard (request.httpMethod ?? "GET").uppercased() == "GET" else { return false }
        let own = ["Range", "If-Range", "If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since"]
        return !own.contains { request.value(forHTTPHeaderField: $0) != nil }
    }

    /// What a load of `request` does, given what is stored for it.
    func decide(_ request: URLRequest, stored: HTTPCacheEntry?, now: Date) -> Decision {
        guard Self.isCacheable(request) else { return .load(stores: false) }
        switch request.cachePolicy {
        case .reloadIgnoringLocalCacheData, .reloadIgnoringLocalAndRemoteCacheData:
            return .load(stores: true)
        case .returnCacheDataElseLoad:
            return stored == nil ? .load(stores: true) : .useStored
        case .returnCacheDataDontLoad:
            return stored == nil ? .failNotStored : .useStored
        default:
            break
        }
        guard let stored else { return .load(stores: true) }
        let requestControl = CacheControl(request.value(forHTTPHeaderField: "Cache-Control"))
        let mustRevalidate =
            request.cachePolicy == .reloadRevalidatingCacheData || requestControl.noCache
            || request.value(forHTTPHeaderField: "Pragma")?.lowercased() == "no-cache"
        if !mustRevalidate, isFresh(stored, now: now) { return .useStored }
        return conditionalRequest(request, for: stored).map { .revalidate($0) } ?? .load(stores: true)
    }

    /// Whether `response` may be stored: a 200 or 203 without `no-store` (in the response or the
    /// request) or `Vary: *`, that can be used later (fresh for a while, or with a validator).
    func isStorable(_ response: HTTPURLResponse, for request: URLRequest, now: Date) -> Bool {
        guard Self.isCacheable(request), response.statusCode == 200 || response.statusCode == 203 else {
            return false
        }
        let control = CacheControl(response.value(forHTTPHeaderField: "Cache-Control"))
        if control.noStore || CacheControl(request.value(forHTTPHeaderField: "Cache-Control")).noStore { return false }
        if response.value(forHTTPHeaderField: "Vary")?.trimmingCharacters(in: .whitespaces) == "*" { return false }
        let entry = HTTPCacheEntry(response: response, body: Data(), now: now)
        return lifetime(of: entry) > 0 || entry.header("ETag") != nil || entry.header("Last-Modified") != nil
    }

    /// Whether `response` forbids keeping what was stored before it (`no-store`).
    static func forbidsStoring(_ response: HTTPURLResponse) -> Bool {
        CacheControl(response.value(forHTTPHeaderField: "Cache-Control")).noStore
    }

    /// Whether `entry` is fresh at `now` (RFC 9111, 4.2): its age is below its freshness
    /// lifetime, and the response did not ask to be revalidated every time (`no-cache`).
    func isFresh(_ entry: HTTPCacheEntry, now: Date) -> Bool {
        guard !CacheControl(entry.header("Cache-Control")).noCache else { return false }
        return lifetime(of: entry) > age(of: entry, now: now)
    }

    /// The freshness lifetime: `max-age`, else `Expires` − `Date`, else the heuristic from
    /// `Last-Modified`, else zero.
    func lifetime(of entry: HTTPCacheEntry) -> TimeInterval {
        if let maxAge = CacheControl(entry.header("Cache-Control")).maxAge { return maxAge }
        if let expires = entry.header("Expires") {
            // An invalid Expires (such as "0") means already expired (RFC 9111, 5.3).
            guard let date = HTTPDate.parse(expires) else { return 0 }
            return date.timeIntervalSince(entry.responseDate)
        }
        if let lastModified = entry.header("Last-Modified").flatMap(HTTPDate.parse) {
            let sinceModified = entry.responseDate.timeIntervalSince(lastModified)
            return min(max(0, sinceModified * heuristicFraction), maximumHeuristicLifetime)
        }
        return 0
    }

    /// The entry's current age (RFC 9111, 4.2.3): how old it was when received (from its `Date`
    /// and `Age`), plus the time since.
    func age(of entry: HTTPCacheEntry, now: Date) -> TimeInterval {
        let apparent = max(0, entry.receivedAt.timeIntervalSince(entry.responseDate))
        let declared = entry.header("Age").flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        return max(apparent, declared) + max(0, now.timeIntervalSince(entry.receivedAt))
    }

    /// `request` asking whether `entry` is still current (`If-None-Match` with its `ETag`,
    /// `If-Modified-Since` with its `Last-Modified`), or `nil` when it has no validator.
    func conditionalRequest(_ request: URLRequest, for entry: HTTPCacheEntry) -> URLRequest? {
        let etag = entry.header("ETag")
        let lastModified = entry.header("Last-Modified")
        guard etag != nil || lastModified != nil else { return nil }
        var conditional = request
        if let etag { conditional.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified { conditional.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
        return conditional
    }
}
