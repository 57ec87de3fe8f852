import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `URLAuthenticationChallenge` a ``DataLoader`` hands its credential provider for a 401 or
/// 407: the protection space from the URL and the `WWW-Authenticate`/`Proxy-Authenticate` field
/// (scheme and realm), as URLSession presents it.
enum AuthenticationChallenge {
    static func make(url: URL?, status: Int, header: String?, response: URLResponse?) -> URLAuthenticationChallenge {
        let scheme = header.flatMap { $0.split(separator: " ", maxSplits: 1).first }.map { $0.lowercased() }
        let method =
            switch scheme {
            case "basic": NSURLAuthenticationMethodHTTPBasic
            case "digest": NSURLAuthenticationMethodHTTPDigest
            case "ntlm": NSURLAuthenticationMethodNTLM
            case "negotiate": NSURLAuthenticationMethodNegotiate
            default: NSURLAuthenticationMethodDefault
            }
        let host = url?.host ?? ""
        let urlScheme = url?.scheme?.lowercased() ?? "http"
        let port = url?.port ?? (urlScheme == "https" ? 443 : 80)
        let space =
            status == 407
            ? URLProtectionSpace(
                proxyHost: host, port: port,
                type: urlScheme == "https" ? NSURLProtectionSpaceHTTPSProxy : NSURLProtectionSpaceHTTPProxy,
                realm: realm(in: header), authenticationMethod: method)
            : URLProtectionSpace(
                host: host, port: port, protocol: urlScheme, realm: realm(in: header), authenticationMethod: method)
        return URLAuthenticationChallenge(
            protectionSpace: space, proposedCredential: nil, previousFailureCount: 0, failureResponse: response,
            error: nil, sender: ChallengeSender())
    }

    /// The `realm="…"` parameter of a challenge field.
    static func realm(in header: String?) -> String? {
        guard let header, let range = header.range(of: "realm=", options: .caseInsensitive) else { return nil }
        var value = header[range.upperBound...]
        if value.first == "\"" {
            value = value.dropFirst()
            return String(value.prefix { $0 != "\"" })
        }
        return String(value.prefix { $0 != "," && $0 != " " })
    }
}

/// The challenge's sender: the provider answers by returning a credential, so the sender's
/// calls have nothing to do.
private final class ChallengeSender: NSObject, URLAuthenticationChallengeSender {
    func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
    func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
    func cancel(_ challenge: URLAuthenticationChallenge) {}
    func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
    func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
}
