import Testing
@testable import Comet

/// The priority work queues of the graph's stages.
@Suite("Work queue")
struct WorkQueueTests {
    /// Items cancelled while they wait leave no entries behind in the queue, and the queue
    /// still starts what comes next.
    @Test func cancelledPendingItemsLeaveNoEntriesBehind() {
        let executor = PipelineExecutor()
        let (entriesAfterCancel, nextStarted) = executor.sync { graph -> (Int, Bool) in
            let queue = WorkQueue(maxConcurrentCount: 1, executor: executor)
            let running = queue.add(priority: .normal, graph) { _, _ in }  // holds the one slot
            let priorities = ImageRequest.Priority.allCases
            let pending = (0..<100).map { index in
                queue.add(priority: priorities[index % priorities.count], graph) { _, _ in }
            }
            for item in pending { item.cancel(graph) }
            let entries = queue.bucketEntryCount
            var started = false
            queue.add(priority: .low, graph) { graph, item in
                started = true
                item.finish(graph)
            }
            running.finish(graph)
            return (entries, started)
        }
        #expect(entriesAfterCancel == 0)
        #expect(nextStarted)
    }

    /// The highest priority starts first, first in first out among equals, after priority
    /// changes too.
    @Test func itemsStartByPriorityThenInOrder() {
        let executor = PipelineExecutor()
        let order = executor.sync { graph -> [String] in
            let queue = WorkQueue(maxConcurrentCount: 1, executor: executor)
            var order: [String] = []
            let running = queue.add(priority: .normal, graph) { _, _ in }
            for (name, priority) in [
                ("low 1", ImageRequest.Priority.low), ("high", .high), ("low 2", .low), ("normal", .normal),
            ] {
                queue.add(priority: priority, graph) { graph, item in
                    order.append(name)
                    item.finish(graph)
                }
            }
            let raised = queue.add(priority: .veryLow, graph) { graph, item in
                order.append("raised")
                item.finish(graph)
            }
            raised.setPriority(.veryHigh, graph)
            running.finish(graph)
            return order
        }
        #expect(order == ["raised", "high", "normal", "low 1", "low 2"])
    }
}
