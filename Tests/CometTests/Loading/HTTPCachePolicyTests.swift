import Foundation
import Testing
@testable import Comet
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP caching rules as pure functions: dates, lifetimes, ages, storability and what a load
/// does for each request cache policy.
@Suite("HTTPCachePolicy")
struct HTTPCachePolicyTests {
    private let policy = HTTPCachePolicy(heuristicFraction: 0.1, maximumHeuristicLifetime: 86_400)
    private let url = URL(string: "https://example.com/a.png")!
    private let epoch = Date(timeIntervalSince1970: 1_000_000_000)

    private func entry(_ headers: [String: String], receivedAt: Date? = nil) -> HTTPCacheEntry {
        let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)!
        return HTTPCacheEntry(response: response, body: Data("x".utf8), now: receivedAt ?? epoch)
    }

    @Test func theThreeHTTPDateFormatsParseToTheSameInstant() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
    }

    @Test func aMalformedDateIsNotADate() {
        #expect(HTTPDate.parse("0") == nil)
        #expect(HTTPDate.parse("Sun, 06 Foo 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 25:49:37 GMT") == nil)
    }

    @Test func maxAgeIsTheLifetime() {
        #expect(policy.lifetime(of: entry(["Cache-Control": "public, max-age=600"])) == 600)
    }

    @Test func expiresMinusDateIsTheLifetimeWithoutMaxAge() {
        let headers = ["Date": "Sun, 06 Nov 1994 08:49:37 GMT", "Expires": "Sun, 06 Nov 1994 09:49:37 GMT"]
        #expect(policy.lifetime(of: entry(headers)) == 3600)
    }

    @Test func anInvalidExpiresMeansAlreadyExpired() {
        #expect(policy.lifetime(of: entry(["Expires": "0"])) == 0)
    }

    @Test func lastModifiedGivesATenthOfItsAgeCappedAtADay() {
        let recent = ["Date": "Sun, 06 Nov 1994 08:49:37 GMT", "Last-Modified": "Sun, 06 Nov 1994 07:49:37 GMT"]
        let old = ["Date": "Sun, 06 Nov 1994 08:49:37 GMT", "Last-Modified": "Sun, 06 Nov 1984 08:49:37 GMT"]
        #expect(policy.lifetime(of: entry(recent)) == 360)
        #expect(policy.lifetime(of: entry(old)) == 86_400)
    }

    @Test func theAgeHeaderAndTheTimeSinceReceiptAddUp() {
        let stored = entry(["Age": "100", "Cache-Control": "max-age=150"])
        #expect(policy.age(of: stored, now: epoch + 30) == 130)
        #expect(policy.isFresh(stored, now: epoch + 30))
        #expect(!policy.isFresh(stored, now: epoch + 60))
    }

    @Test func noCacheInTheResponseIsNeverFresh() {
        #expect(!policy.isFresh(entry(["Cache-Control": "no-cache, max-age=600"]), now: epoch))
    }

    @Test func noStoreAndVaryStarAreNotStorable() {
        let request = URLRequest(url: url)
        func response(_ headers: [String: String], status: Int = 200) -> HTTPURLResponse {
            HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: headers)!
        }
        #expect(policy.isStorable(response(["Cache-Control": "max-age=60"]), for: request, now: epoch))
        #expect(!policy.isStorable(response(["Cache-Control": "no-store, max-age=60"]), for: request, now: epoch))
        #expect(!policy.isStorable(response(["Cache-Control": "max-age=60", "Vary": "*"]), for: request, now: epoch))
        #expect(!policy.isStorable(response(["Cache-Control": "max-age=60"], status: 206), for: request, now: epoch))
        #expect(!policy.isStorable(response([:]), for: request, now: epoch))
        #expect(policy.isStorable(response(["ETag": "\"a\""]), for: request, now: epoch))
    }

    @Test func aRangeOrAPostIsNotCached() {
        var ranged = URLRequest(url: url)
        ranged.setValue("bytes=10-", forHTTPHeaderField: "Range")
        var post = URLRequest(url: url)
        post.httpMethod = "POST"
        #expect(
            policy.decide(ranged, stored: entry(["Cache-Control": "max-age=60"]), now: epoch) == .load(stores: false))
        #expect(policy.decide(post, stored: nil, now: epoch) == .load(stores: false))
    }

    @Test func eachRequestCachePolicyDecides() {
        let fresh = entry(["Cache-Control": "max-age=60", "ETag": "\"a\""])
        let stale = entry(["Cache-Control": "max-age=0", "ETag": "\"a\""])
        func request(_ cachePolicy: URLRequest.CachePolicy) -> URLRequest {
            var request = URLRequest(url: url)
            request.cachePolicy = cachePolicy
            return request
        }
        #expect(policy.decide(request(.useProtocolCachePolicy), stored: nil, now: epoch) == .load(stores: true))
        #expect(policy.decide(request(.useProtocolCachePolicy), stored: fresh, now: epoch) == .useStored)
        guard
            case .revalidate(let conditional) = policy.decide(
                request(.useProtocolCachePolicy), stored: stale, now: epoch)
        else { Issue.record("a stale entry with an ETag is revalidated"); return }
        #expect(conditional.value(forHTTPHeaderField: "If-None-Match") == "\"a\"")
        #expect(policy.decide(request(.reloadIgnoringLocalCacheData), stored: fresh, now: epoch) == .load(stores: true))
        #expect(policy.decide(request(.returnCacheDataElseLoad), stored: stale, now: epoch) == .useStored)
        #expect(policy.decide(request(.returnCacheDataDontLoad), stored: nil, now: epoch) == .failNotStored)
        guard case .revalidate = policy.decide(request(.reloadRevalidatingCacheData), stored: fresh, now: epoch) else {
            Issue.record("reloadRevalidatingCacheData revalidates a fresh entry"); return
        }
    }

    @Test func aStaleEntryWithoutAValidatorIsLoadedAgain() {
        let stale = entry(["Cache-Control": "max-age=0"])
        #expect(policy.decide(URLRequest(url: url), stored: stale, now: epoch) == .load(stores: true))
    }

    @Test func anEntryRoundTripsThroughItsEncodingAndGarbageIsNoEntry() {
        let stored = entry(["Cache-Control": "max-age=60", "Content-Encoding": "gzip", "ETag": "\"a\""])
        #expect(HTTPCacheEntry(decoding: stored.encoded()) == stored)
        #expect(stored.header("content-encoding") == nil)
        #expect(stored.header("content-length") == "1")
        #expect(HTTPCacheEntry(decoding: Data("not an entry".utf8)) == nil)
        #expect(HTTPCacheEntry(decoding: stored.encoded().prefix(12)) == nil)
    }
}
