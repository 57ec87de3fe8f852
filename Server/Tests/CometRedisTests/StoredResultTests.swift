@testable import CometRedis
import Testing

@Suite("StoredResult's Redis encoding")
struct StoredResultTests {
    @Test func aResultWithAnEntityTagSurvivesTheRoundTrip() {
        let result = StoredResult(bytes: [0, 1, 2, 0, 255], contentType: "image/avif", etag: "\"abc\"")
        #expect(StoredResult(encoded: result.encoded()) == result)
    }

    @Test func aResultWithoutAnEntityTagOrBytesSurvivesTheRoundTrip() {
        let result = StoredResult(bytes: [], contentType: "image/jpeg")
        #expect(StoredResult(encoded: result.encoded()) == result)
    }

    @Test func aForeignValueIsNotAResult() {
        #expect(StoredResult(encoded: Array("hello, world".utf8)) == nil)
        #expect(StoredResult(encoded: Array("CMT1".utf8) + [0xFF, 0xFF]) == nil)
    }
}
