import CometTestSupport
import Dispatch
import Foundation
import HanekeCompat
import Testing

/// Haneke's cache from many threads at once: every value set is read back whole, and removals
/// made once the work settled leave nothing behind. (Run under `make tsan` for races.)
@Suite(.timeLimit(.minutes(10)))
struct CacheConcurrencyTests {
    init() { TestBase.prepare() }

    private func fetched(_ cache: Cache<String>, _ key: String) async -> String? {
        let outcome = Outcome<String>()
        cache.fetch(key: key, failure: outcome.fail, success: outcome.succeed)
        _ = await outcome.wait()
        return outcome.value
    }

    @Test func concurrentSetsAreAllReadBack() async {
        let cache = Cache<String>(name: TestBase.uniqueName())
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<50 { cache.set(value: "value-\(thread)-\(index)", key: "key-\(thread)-\(index)") }
        }
        for thread in 0..<8 {
            for index in stride(from: 0, to: 50, by: 7) {
                #expect(await fetched(cache, "key-\(thread)-\(index)") == "value-\(thread)-\(index)")
            }
        }
    }

    @Test func concurrentSetsFetchesAndRemovalsEndConsistent() async {
        let cache = Cache<String>(name: TestBase.uniqueName())
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<100 {
                let key = "key-\(index % 10)"
                switch (thread + index) % 3 {
                case 0: cache.set(value: "value", key: key)
                case 1: cache.fetch(key: key, failure: { _ in }, success: { _ in })
                default: cache.remove(key: key)
                }
            }
        }
        // Let the work those calls started settle first: a fetch that hit the disk puts the value
        // back in memory from the main queue (as Haneke does), which would undo a remove made
        // before that callback ran.
        _ = cache.size  // returns once the disk work queued so far has run
        await MainActor.run {}  // and after the callbacks it queued on main
        for index in 0..<10 { cache.remove(key: "key-\(index)") }
        for index in 0..<10 { #expect(await fetched(cache, "key-\(index)") == nil) }
    }
}
