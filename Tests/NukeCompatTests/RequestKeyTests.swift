import Foundation
import Testing
import NukeCompat
import CometTestSupport
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private let url = URL(string: "http://example.com/photo.jpg")!

/// A request for `url` sent with `Authorization: user` (header name spelled `name`).
private func authorized(_ user: String, name: String = "Authorization") -> Request {
    var urlRequest = URLRequest(url: url)
    urlRequest.setValue(user, forHTTPHeaderField: name)
    return Request(urlRequest: urlRequest)
}

@Suite("RequestCacheKeyTests")
struct RequestCacheKeyTests {
    @Test func sameURLIsEqual() {
        #expect(Request.cacheKey(for: Request(url: url)) == Request.cacheKey(for: Request(url: url)))
    }

    @Test func differentURLsAreNotEqual() {
        #expect(
            Request.cacheKey(for: Request(url: url))
                != Request.cacheKey(for: Request(url: URL(string: "http://example.com/2.jpg")!)))
    }

    @Test func equalProcessorsAreEqual() {
        #expect(
            Request.cacheKey(for: Request(url: url).processed(with: Widen(columns: 1)))
                == Request.cacheKey(for: Request(url: url).processed(with: Widen(columns: 1))))
    }

    @Test func differentProcessorsAreNotEqual() {
        let base = Request(url: url)
        #expect(
            Request.cacheKey(for: base.processed(with: Widen(columns: 1)))
                != Request.cacheKey(for: base.processed(with: Widen(columns: 2))))
        #expect(
            Request.cacheKey(for: base.processed(with: Widen(columns: 1)))
                != Request.cacheKey(for: base.processed(with: DoubleWidth())))
        #expect(Request.cacheKey(for: base.processed(with: Widen(columns: 1))) != Request.cacheKey(for: base))
    }

    @Test func cachePolicyIsIgnored() {
        let other = Request(urlRequest: URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData))
        #expect(Request.cacheKey(for: Request(url: url)) == Request.cacheKey(for: other))
    }

    @Test func differentCredentialsAreNotEqual() {
        #expect(Request.cacheKey(for: authorized("alice")) != Request.cacheKey(for: authorized("bob")))
        #expect(Request.cacheKey(for: authorized("alice")) != Request.cacheKey(for: Request(url: url)))
        #expect(
            Request.cacheKey(for: authorized("alice"))
                == Request.cacheKey(for: authorized("alice", name: "authorization")))
    }

    @Test func customCacheKeyWins() {
        var first = Request(url: url)
        first.cacheKey = "custom"
        var second = Request(url: URL(string: "http://example.com/other.jpg")!)
        second.cacheKey = "custom"
        #expect(Request.cacheKey(for: first) == Request.cacheKey(for: second))
    }
}

@Suite("RequestLoadKeyTests")
struct RequestLoadKeyTests {
    @Test func sameURLIsEqual() {
        #expect(Request.loadKey(for: Request(url: url)) == Request.loadKey(for: Request(url: url)))
    }

    @Test func differentProcessorsAreNotEqual() {
        let base = Request(url: url)
        #expect(Request.loadKey(for: base) != Request.loadKey(for: base.processed(with: DoubleWidth())))
        #expect(
            Request.loadKey(for: base.processed(with: Widen(columns: 1)))
                != Request.loadKey(for: base.processed(with: Widen(columns: 2))))
        #expect(
            Request.loadKey(for: base.processed(with: Widen(columns: 1)))
                != Request.loadKey(for: base.processed(with: DoubleWidth())))
    }

    @Test func equalProcessorsAreEqual() {
        #expect(
            Request.loadKey(for: Request(url: url).processed(with: Widen(columns: 1)))
                == Request.loadKey(for: Request(url: url).processed(with: Widen(columns: 1))))
    }

    @Test func cachePolicyCounts() {
        let other = Request(urlRequest: URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData))
        #expect(Request.loadKey(for: Request(url: url)) != Request.loadKey(for: other))
    }

    @Test func cellularAccessCounts() {
        var urlRequest = URLRequest(url: url)
        urlRequest.allowsCellularAccess = false
        #expect(Request.loadKey(for: Request(url: url)) != Request.loadKey(for: Request(urlRequest: urlRequest)))
    }

    @Test func differentCredentialsAreNotEquivalent() {
        #expect(Request.loadKey(for: authorized("alice")) != Request.loadKey(for: authorized("bob")))
        #expect(
            Request.loadKey(for: authorized("alice"))
                == Request.loadKey(for: authorized("alice", name: "authorization")))
    }

    @Test func customLoadKeyWins() {
        var first = Request(url: url)
        first.loadKey = 1
        var second = Request(url: URL(string: "http://example.com/other.jpg")!)
        second.loadKey = 1
        #expect(Request.loadKey(for: first) == Request.loadKey(for: second))
    }
}
