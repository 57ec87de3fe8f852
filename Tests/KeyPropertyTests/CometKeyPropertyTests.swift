import Foundation
import PropertyBased
import Testing
@testable import Comet

/// Comet's key families against the model in ``RequestSpec``: keys are equal exactly when the
/// model says the results (or, for jobs, the results and their sources) are equal.
@Suite("Comet key properties")
struct CometKeyPropertyTests {
    @Test func memoryCacheKeysAreEqualExactlyWhenTheImagesAre() async {
        await propertyCheck(count: 3000, input: RequestSpec.anyPair) { a, b in
            let (ka, kb) = (a.request.memoryCacheKey, b.request.memoryCacheKey)
            #expect((ka == kb) == (a.result == b.result), "\(a) | \(b)")
            if ka == kb { #expect(ka.hashValue == kb.hashValue) }
        }
    }

    @Test func jobKeysAreEqualExactlyWhenTheImagesAndTheirSourcesAre() async {
        await propertyCheck(count: 3000, input: RequestSpec.anyPair) { a, b in
            let (ka, kb) = (a.request.key, b.request.key)
            #expect((ka == kb) == (a.result == b.result && a.sourcePolicy == b.sourcePolicy), "\(a) | \(b)")
            if ka == kb { #expect(ka.hashValue == kb.hashValue) }
            // Every stage a request's processors go through is keyed the same way.
            for count in 0...min(ka.processors.count, kb.processors.count) {
                let samePrefix = Array(a.processors.prefix(count)) == Array(b.processors.prefix(count))
                let sameStage =
                    a.bytes == b.bytes && a.thumbnail == b.thumbnail && samePrefix && a.sourcePolicy == b.sourcePolicy
                    && a.keepsOriginalColors == b.keepsOriginalColors
                if count < ka.processors.count, count < kb.processors.count {
                    #expect((ka.prefix(count) == kb.prefix(count)) == sameStage, "prefix \(count): \(a) | \(b)")
                }
            }
        }
    }

    @Test func downloadKeysAreEqualExactlyWhenTheBytesAndTheirSourcesAre() async {
        await propertyCheck(count: 3000, input: RequestSpec.anyPair) { a, b in
            let equal = DataLoadKey(a.request) == DataLoadKey(b.request)
            #expect(equal == (a.bytes == b.bytes && a.sourcePolicy == b.sourcePolicy), "\(a) | \(b)")
        }
    }

    @Test func diskKeysAreEqualExactlyWhenTheImagesAre() async {
        await propertyCheck(count: 3000, input: RequestSpec.anyPair) { a, b in
            let (ka, kb) = (a.request.key, b.request.key)
            #expect((ka.diskKey == kb.diskKey) == (a.result == b.result), "\(a) | \(b)")
            #expect((a.request.dataKey == b.request.dataKey) == (a.bytes == b.bytes), "\(a) | \(b)")
        }
    }
}
