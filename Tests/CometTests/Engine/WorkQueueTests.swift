import Testing
@testable import Comet

/// The priority work queues of the graph's stages.
@Suite("Work queue")
struct WorkQueueTests {
    /// Items cancelled while they wait leave no entries behind in the queue, and the queue
    /// still starts what comes next.
    @Test func cancelledPendingItemsLeaveNoEntriesBehind() {
        let executor = PipelineExecutor()
        let (entriesAfterCancel, nextStarted) = executor.sync { () -> (Int, Bool) in
            let queue = WorkQueue(maxConcurrentCount: 1, executor: executor)
            let running = queue.add(priority: .normal) { _ in } // holds the one slot
            let priorities = ImageRequest.Priority.allCases
            let pending = (0..<100).map { index in queue.add(priority: priorities[index % priorities.count]) { _ in } }
            for item in pending { item.cancel() }
            let entries = queue.bucketEntryCount
            var started = false
            queue.add(priority: .low) { item in
                started = true
                item.finish()
            }
            running.finish()
            return (entries, started)
        }
        #expect(entriesAfterCancel == 0)
        #expect(nextStarted)
    }

    /// The highest priority starts first, first in first out among equals, after priority
    /// changes too.
    @Test func itemsStartByPriorityThenInOrder() {
        let executor = PipelineExecutor()
        let order = executor.sync { () -> [String] in
            let queue = WorkQueue(maxConcurrentCount: 1, executor: executor)
            var order: [String] = []
            let running = queue.add(priority: .normal) { _ in }
            for (name, priority) in [("low 1", ImageRequest.Priority.low), ("high", .high), ("low 2", .low), ("normal", .normal)] {
                queue.add(priority: priority) { item in
                    order.append(name)
                    item.finish()
                }
            }
            let raised = queue.add(priority: .veryLow) { item in
                order.append("raised")
                item.finish()
            }
            raised.setPriority(.veryHigh)
            running.finish()
            return order
        }
        #expect(order == ["raised", "high", "normal", "low 1", "low 2"])
    }
}
