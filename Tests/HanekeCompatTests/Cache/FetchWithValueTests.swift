import CometTestSupport
import Foundation
import HanekeCompat
import Testing

/// `Cache.fetch(key:value:formatName:success:)` and `SimpleFetcher`: the given value fills a
/// missing key, and is not even evaluated when the cache has it.
@Suite(.timeLimit(.minutes(10)))
struct FetchWithValueTests {
    init() { TestBase.prepare() }

    @Test func aMissingKeyIsFilledWithTheGivenValueFormatted() async {
        let cache = Cache<String>(name: TestBase.uniqueName())
        cache.addFormat(Format<String>(name: "upper") { $0.uppercased() })
        let outcome = Outcome<String>()
        cache.fetch(key: "greeting", value: "hello", formatName: "upper", success: outcome.succeed)
        #expect(await outcome.wait())
        #expect(outcome.values == ["HELLO"])
        let again = Outcome<String>()
        cache.fetch(key: "greeting", formatName: "upper", failure: again.fail, success: again.succeed)
        #expect(await again.wait())
        #expect(again.values == ["HELLO"])
    }

    @Test func aCachedKeyWinsAndTheValueIsNotEvaluated() async {
        let cache = Cache<String>(name: TestBase.uniqueName())
        cache.set(value: "stored", key: "k")
        let evaluated = Outcome<Bool>()
        func expensive() -> String {
            evaluated.succeed(true)
            return "given"
        }
        let outcome = Outcome<String>()
        cache.fetch(key: "k", value: expensive(), success: outcome.succeed)
        #expect(await outcome.wait())
        #expect(outcome.values == ["stored"])
        #expect(evaluated.callbackCount == 0)
    }

    @Test func aSimpleFetcherSucceedsAtOnceWithItsValue() {
        let fetcher = SimpleFetcher<String>(key: "k", value: "v")
        let outcome = Outcome<String>()
        fetcher.fetch(failure: outcome.fail, success: outcome.succeed)
        #expect(outcome.values == ["v"])
        #expect(fetcher.key == "k")
    }
}
