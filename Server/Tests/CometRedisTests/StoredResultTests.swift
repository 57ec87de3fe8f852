@testable import CometRedis
import Testing

@Suite("StoredResult's Redis encoding")
struct StoredResultTests {
    @Test func aResultSurvivesTheRoundTrip() {
        let result = StoredResult(bytes: [0, 1, 2, 0, 255], contentType: "image/avif", etag: "\"abc\"")
        #expect(StoredResult(encoded: result.encoded()) == result)
    }

    @Test func aResultWithoutBytesOrEntityTagSurvivesTheRoundTrip() {
        let result = StoredResult(bytes: [], contentType: "image/jpeg", etag: "")
        #expect(StoredResult(encoded: result.encoded()) == result)
    }

    @Test func aForeignValueIsNotAResult() {
        #expect(StoredResult(encoded: Array("hello, world".utf8)) == nil)
        #expect(StoredResult(encoded: Array("CMT1".utf8) + [0, 9, 0x61]) == nil)
    }
}
