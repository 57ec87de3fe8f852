@testable import CometServer
import Testing

/// Every transition of the load shedder's ``AdmissionQueue``, with strings for waiters.
@Suite("The load shedder's admission queue")
struct AdmissionQueueTests {
    private func full(running: Int, queued: Int = 0, waiting: Int = 0) -> AdmissionQueue<String> {
        var queue = AdmissionQueue<String>(maximumConcurrent: running, maximumQueued: queued)
        for id in 0..<running { _ = queue.arrive(id: id, waiter: "running \(id)", isCancelled: false) }
        for id in 0..<waiting { _ = queue.arrive(id: 100 + id, waiter: "waiter \(id)", isCancelled: false) }
        return queue
    }

    @Test func anArrivalRunsWhileASlotIsFree() {
        var queue = AdmissionQueue<String>(maximumConcurrent: 2, maximumQueued: 0)
        #expect(queue.arrive(id: 1, waiter: "a", isCancelled: false) == .run)
        #expect(queue.arrive(id: 2, waiter: "b", isCancelled: false) == .run)
        #expect(queue.active == 2 && queue.queued == 0)
    }

    @Test func anArrivalWithoutAWaiterRunsWhileASlotIsFree() {
        var queue = AdmissionQueue<String>(maximumConcurrent: 1, maximumQueued: 1)
        #expect(queue.arriveIfFree(isCancelled: false) == .run)
        #expect(queue.active == 1 && queue.queued == 0)
    }

    @Test func anArrivalWithoutAWaiterChangesNothingWhenTheSlotsAreTaken() {
        var queue = full(running: 1, queued: 1)
        #expect(queue.arriveIfFree(isCancelled: false) == nil)
        #expect(queue.active == 1 && queue.queued == 0)
    }

    @Test func aCancelledArrivalWithoutAWaiterDoesNotRun() {
        var queue = AdmissionQueue<String>(maximumConcurrent: 1, maximumQueued: 1)
        #expect(queue.arriveIfFree(isCancelled: true) == .cancel)
        #expect(queue.active == 0)
    }

    @Test func anArrivalWaitsWhenTheSlotsAreTakenAndTheLineHasRoom() {
        var queue = full(running: 1, queued: 2)
        #expect(queue.arrive(id: 7, waiter: "w", isCancelled: false) == .wait)
        #expect(queue.active == 1 && queue.queued == 1)
    }

    @Test func anArrivalIsRefusedWhenTheLineIsFull() {
        var queue = full(running: 1, queued: 1, waiting: 1)
        #expect(queue.arrive(id: 7, waiter: "w", isCancelled: false) == .refuse)
        #expect(queue.queued == 1)
    }

    @Test func aLineOfZeroRefusesAtOnce() {
        var queue = full(running: 1, queued: 0)
        #expect(queue.arrive(id: 7, waiter: "w", isCancelled: false) == .refuse)
    }

    @Test func aCancelledArrivalNeitherRunsNorWaits() {
        var queue = AdmissionQueue<String>(maximumConcurrent: 1, maximumQueued: 1)
        #expect(queue.arrive(id: 1, waiter: "a", isCancelled: true) == .cancel)
        #expect(queue.active == 0 && queue.queued == 0)
    }

    @Test func aFinishHandsTheSlotToTheFirstWaiter() {
        var queue = full(running: 1, queued: 3, waiting: 2)
        #expect(queue.finish() == "waiter 0")
        #expect(queue.active == 1 && queue.queued == 1)
        #expect(queue.finish() == "waiter 1")
        #expect(queue.finish() == nil)
        #expect(queue.active == 0)
    }

    @Test func aFreedSlotTakesTheNextArrival() {
        var queue = full(running: 1, queued: 1)
        #expect(queue.finish() == nil)
        #expect(queue.arrive(id: 9, waiter: "late", isCancelled: false) == .run)
    }

    @Test func anAbandonedWaiterLeavesTheLineAndIsReturnedToFail() {
        var queue = full(running: 1, queued: 3, waiting: 3)
        #expect(queue.abandon(id: 101) == "waiter 1")
        #expect(queue.queued == 2)
        #expect(queue.finish() == "waiter 0")
        #expect(queue.finish() == "waiter 2")
    }

    @Test func abandoningWorkThatRunsChangesNothing() {
        var queue = full(running: 1, queued: 1)
        #expect(queue.abandon(id: 0) == nil)
        #expect(queue.active == 1)
    }

    @Test func abandoningTwiceReturnsTheWaiterOnce() {
        var queue = full(running: 1, queued: 1, waiting: 1)
        #expect(queue.abandon(id: 100) == "waiter 0")
        #expect(queue.abandon(id: 100) == nil)
    }
}
