import CometTestSupport
import Foundation
import HanekeCompat
import Testing

/// Which callbacks are synchronous and which come later on main (haneke.md, "Behaviour").
/// The "later" tests run on the main actor: a main-queue callback then cannot arrive before the
/// call returns and the test awaits, so "no callback yet" right after the call is a sound check.
@Suite(.timeLimit(.minutes(10)))
struct CacheCallbackThreadTests {
    init() { TestBase.prepare() }

    @Test func setWithTheOriginalFormatCallsBackSynchronouslyForNonImageValues() {
        let cache = Cache<String>(name: TestBase.uniqueName())
        var called = false
        cache.set(value: "value", key: "key") { _ in called = true }
        #expect(called)
    }

    @Test @MainActor func setOfAnImageCallsBackLaterOnMain() async {
        let cache = Cache<Image>(name: TestBase.uniqueName())
        let outcome = Outcome<Image>()
        cache.set(value: TestImages.image(width: 8, height: 8), key: "key", success: outcome.succeed)
        #expect(outcome.callbackCount == 0)
        #expect(await outcome.wait())
        #expect(outcome.allOnMain)
    }

    @Test @MainActor func setWithATransformCallsBackLaterOnMainWithTheTransformedValue() async {
        let cache = Cache<String>(name: TestBase.uniqueName())
        cache.addFormat(Format<String>(name: "upper") { $0.uppercased() })
        let outcome = Outcome<String>()
        cache.set(value: "haneke", key: "key", formatName: "upper", success: outcome.succeed)
        #expect(outcome.callbackCount == 0)
        #expect(await outcome.wait())
        #expect(outcome.value == "HANEKE")
        #expect(outcome.allOnMain)
    }

    @Test func fetchOfAnUnknownFormatFailsSynchronouslyWithMinus101() {
        let cache = Cache<String>(name: TestBase.uniqueName())
        let outcome = Outcome<String>()
        cache.fetch(key: "key", formatName: "missing", failure: outcome.fail, success: outcome.succeed)
        #expect(outcome.error?.domain == "io.haneke")
        #expect(outcome.error?.code == HanekeGlobals.Cache.ErrorCode.formatNotFound.rawValue)
        #expect(outcome.error?.code == -101)
        #expect(outcome.error?.localizedDescription == "Format missing not found")
    }

    @Test func fetchOfAMemoryHitSucceedsSynchronously() {
        let cache = Cache<String>(name: TestBase.uniqueName())
        cache.set(value: "value", key: "key")
        let outcome = Outcome<String>()
        cache.fetch(key: "key", failure: outcome.fail, success: outcome.succeed)
        #expect(outcome.values == ["value"])
    }

    @Test @MainActor func fetchOfADiskHitSucceedsLaterOnMain() async {
        let name = TestBase.uniqueName()
        let writer = Cache<String>(name: name)
        writer.set(value: "on disk", key: "key")
        #expect(await hasDiskData(writer))
        let reader = Cache<String>(name: name)  // empty memory level
        let outcome = Outcome<String>()
        reader.fetch(key: "key", failure: outcome.fail, success: outcome.succeed)
        #expect(outcome.callbackCount == 0)
        #expect(await outcome.wait())
        #expect(outcome.values == ["on disk"])
        #expect(outcome.allOnMain)
    }

    @Test @MainActor func fetchOfAMissingKeyFailsLaterOnMainWithMinus100() async {
        let cache = Cache<String>(name: TestBase.uniqueName())
        let outcome = Outcome<String>()
        cache.fetch(key: "nothing", failure: outcome.fail, success: outcome.succeed)
        #expect(outcome.callbackCount == 0)
        #expect(await outcome.wait())
        #expect(outcome.allOnMain)
        #expect(outcome.error?.domain == HanekeGlobals.Domain)
        #expect(outcome.error?.code == -100)
        #expect(outcome.error?.localizedDescription == "Object not found for key nothing")
    }

    @Test func aDiskHitIsKeptInMemorySoTheNextFetchIsSynchronous() async {
        let name = TestBase.uniqueName()
        let writer = Cache<String>(name: name)
        writer.set(value: "v", key: "key")
        #expect(await eventually { writer.size > 0 })
        let reader = Cache<String>(name: name)
        let first = Outcome<String>()
        reader.fetch(key: "key", success: first.succeed)
        #expect(await first.wait())
        let second = Outcome<String>()
        reader.fetch(key: "key", success: second.succeed)
        #expect(second.values == ["v"])
    }
}
