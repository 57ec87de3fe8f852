import Streams
import Testing

@Suite struct CancellableTests {
    final class Counter: @unchecked Sendable { var count = 0 }

    @Test func anyCancellableCancelsOnDeinit() {
        let counter = Counter()
        do {
            let cancellable = AnyCancellable { counter.count += 1 }
            _ = cancellable
        }
        #expect(counter.count == 1)
    }

    @Test func anyCancellableRunsItsClosureOnlyOnce() {
        let counter = Counter()
        let cancellable = AnyCancellable { counter.count += 1 }
        cancellable.cancel()
        cancellable.cancel()
        #expect(counter.count == 1)
    }

    @Test func storeInSetKeepsItAliveAndHashesByIdentity() {
        let counter = Counter()
        var set = Set<AnyCancellable>()
        AnyCancellable { counter.count += 1 }.store(in: &set)
        AnyCancellable { counter.count += 1 }.store(in: &set)
        #expect(set.count == 2)
        #expect(counter.count == 0)
        set.removeAll()
        #expect(counter.count == 2)
    }

    @Test func storeInArrayAppends() {
        var array: [AnyCancellable] = []
        let cancellable = AnyCancellable {}
        cancellable.store(in: &array)
        #expect(array.count == 1)
        #expect(array[0] == cancellable)
    }

    @Test func anyCancellableWrapsAnotherCancellable() {
        let subscription = TestSubscription()
        let cancellable = AnyCancellable(subscription)
        cancellable.cancel()
        #expect(subscription.cancelCount == 1)
    }

    @Test func combineIdentifiersAreUnique() {
        #expect(CombineIdentifier() != CombineIdentifier())
        let object = TestSubscription()
        #expect(CombineIdentifier(object) == object.combineIdentifier)
    }

    @Test func emptySubscriptionIgnoresRequestsAndCancel() {
        let empty = Subscriptions.empty
        empty.request(.max(1))
        empty.cancel()
        #expect(empty.combineIdentifier == Subscriptions.empty.combineIdentifier)
    }
}
