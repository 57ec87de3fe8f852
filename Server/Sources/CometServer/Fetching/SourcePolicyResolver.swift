import CometAsyncHTTPClient
import Foundation

/// ``SourcePolicy`` as the fetcher's ``CometAsyncHTTPClient/HostResolving``: each URL the fetch
/// requests is checked (canonical form, allow-list, every address of its host) and fetched in
/// its canonical form from the first address the check accepted.
///
/// Thread-safe (a value).
struct SourcePolicyResolver: HostResolving {
    let policy: SourcePolicy

    func resolve(_ url: URL) async throws -> ResolvedURL {
        let (canonical, address) = try await policy.resolve(url)
        return ResolvedURL(url: canonical, address: HostResolver.presentation(of: address))
    }
}
