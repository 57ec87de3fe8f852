import CometTestSupport
import Foundation
import HanekeCompat
import PropertyBased
import Testing

/// Haneke's keys are format-scoped: a value set under one key and format is found exactly by
/// the same key in the same format, in memory and on disk.
@Suite(.timeLimit(.minutes(10)))
struct CacheKeyPropertyTests {
    init() { TestBase.prepare() }

    static let keys = ["a", "b", "https://example.com/images/1.png"]
    static let formats = [HanekeGlobals.Cache.OriginalFormatName, "upper", "reversed"]

    static func makeCache(name: String) -> Cache<String> {
        let cache = Cache<String>(name: name)
        cache.addFormat(Format<String>(name: "upper") { $0.uppercased() })
        cache.addFormat(Format<String>(name: "reversed") { String($0.reversed()) })
        return cache
    }

    /// What `format` makes of `value`.
    static func formatted(_ value: String, _ format: String) -> String {
        switch format {
        case "upper": value.uppercased()
        case "reversed": String(value.reversed())
        default: value
        }
    }

    static var pair: Generator<((Int, Int), (Int, Int)), some SendableSequenceType> {
        zip(Gen.int(in: 0...2), Gen.int(in: 0...2), Gen.int(in: 0...2), Gen.int(in: 0...2)).map {
            keyA, formatA, keyB, formatB in
            ((keyA, formatA), (keyB, formatB))
        }
    }

    @Test @MainActor func aValueIsFoundExactlyUnderItsKeyAndFormat() async {
        await propertyCheck(count: 60, input: Self.pair) { a, b in
            let name = TestBase.uniqueName()
            let writer = Self.makeCache(name: name)
            let (keyA, formatA) = (Self.keys[a.0], Self.formats[a.1])
            let (keyB, formatB) = (Self.keys[b.0], Self.formats[b.1])
            let stored = Outcome<String>()
            writer.set(value: "value of \(keyA)", key: keyA, formatName: formatA, success: stored.succeed)
            #expect(await stored.wait())
            let expected = (keyA, formatA) == (keyB, formatB) ? Self.formatted("value of \(keyA)", formatA) : nil
            // From memory, then from disk alone (a new cache over the same folders).
            #expect(await hasDiskData(writer))
            for cache in [writer, Self.makeCache(name: name)] {
                let fetched = Outcome<String>()
                cache.fetch(key: keyB, formatName: formatB, failure: fetched.fail, success: fetched.succeed)
                #expect(await fetched.wait())
                #expect(fetched.value == expected, "set \(keyA) in \(formatA), fetched \(keyB) in \(formatB)")
            }
        }
    }
}
