import Foundation
import HanekeCompat
import Testing

/// `Fetch<T>`: closures registered after the result still run, once.
@Suite(.timeLimit(.minutes(10)))
struct FetchTests {
    init() { TestBase.prepare() }

    @Test func onSuccessRegisteredAfterTheValueArrivedIsCalledAtOnce() {
        let cache = Cache<String>(name: TestBase.uniqueName())
        cache.set(value: "value", key: "key")
        let fetch = cache.fetch(key: "key")
        var received: String?
        fetch.onSuccess { received = $0 }
        #expect(received == "value")
        #expect(fetch.hasSucceeded)
        #expect(!fetch.hasFailed)
    }

    @Test func onFailureRegisteredAfterTheFailureIsCalledAtOnce() {
        let cache = Cache<String>(name: TestBase.uniqueName())
        let fetch = cache.fetch(key: "key", formatName: "unknown")
        var code: Int?
        fetch.onFailure { code = ($0 as NSError?)?.code }
        #expect(code == -101)
        #expect(fetch.hasFailed)
    }

    @Test func aSucceededFetchNeverCallsItsFailureClosure() {
        let cache = Cache<String>(name: TestBase.uniqueName())
        cache.set(value: "value", key: "key")
        var failures = 0
        cache.fetch(key: "key").onFailure { _ in failures += 1 }
        #expect(failures == 0)
    }

    @Test func chainedClosuresReceiveTheLaterResult() async {
        let cache = Cache<String>(name: TestBase.uniqueName())
        let outcome = Outcome<String>()
        cache.fetch(key: "missing").onSuccess(outcome.succeed).onFailure(outcome.fail)
        #expect(await outcome.wait())
        #expect(outcome.error?.code == -100)
        #expect(outcome.values.isEmpty)
    }
}
