import Dispatch
import Locking
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
            let entries = queue.bucketEntryCount(graph)
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

    /// A backlog ticket's last reference may go on any thread: its place comes back through the
    /// graph, and the decode that waited for it starts.
    @Test func aTicketDroppedOnAnotherThreadGivesItsPlaceBack() {
        let executor = PipelineExecutor()
        let backlog = DecodedImageBacklog(limit: 1, executor: executor)
        let queue = WorkQueue(maxConcurrentCount: 2, executor: executor, backlog: backlog)
        let held = Locked<DecodedImageBacklog.Ticket?>(nil)
        let firstDone = DispatchSemaphore(value: 0)
        let secondDone = DispatchSemaphore(value: 0)
        executor.perform { graph in
            queue.runCountingBacklog(priority: .normal, graph, { 1 }) { _, _, ticket in
                held.withLock { $0 = ticket }
                firstDone.signal()
            }
            queue.runCountingBacklog(priority: .normal, graph, { 2 }) { _, _, _ in secondDone.signal() }
        }
        firstDone.wait()
        let waiting = executor.sync { graph in (backlog.count(graph), queue.runningCount(graph)) }
        #expect(waiting == (1, 0))  // the second decode waits for the first one's place
        DispatchQueue.global().async {
            let ticket = held.withLock { held in
                defer { held = nil }
                return held
            }
            _ = ticket  // the last reference, dropped on this worker
        }
        secondDone.wait()
    }

    /// Work run off the graph hands its output back to the graph from whichever thread ran it
    /// (a worker, or the thread leaving the graph for light work): every output arrives once,
    /// with many in flight at a time (run under ThreadSanitizer by `make tsan`).
    @Test func outputsHandedBackFromManyThreadsEachArriveOnce() {
        let executor = PipelineExecutor()
        let queue = WorkQueue(maxConcurrentCount: 8, executor: executor)
        let count = 2_000
        let arrived = Locked<[Int]>([])
        let done = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: count) { index in
            done.enter()
            Self.run(index, in: queue, executor: executor) { output in
                arrived.withLock { $0.append(output) }
                done.leave()
            }
        }
        done.wait()
        #expect(arrived.withLock { $0.sorted() } == Array(0..<count))
    }

    /// Queues work whose output is `index`, light (tried on the thread leaving the graph) for even
    /// indices; `arrive` is called in the graph with the output.
    private static func run(
        _ index: Int, in queue: WorkQueue, executor: PipelineExecutor, arrive: @escaping @Sendable (Int) -> Void
    ) {
        let heavy: @Sendable () -> Int = { index }
        var light: (@Sendable () -> Int?)?
        if index.isMultiple(of: 2) {
            light = { @Sendable () -> Int? in index }
        }
        let lightOrNot = light
        executor.perform { graph in
            queue.run(priority: .normal, light: lightOrNot, graph, heavy) { _, output in arrive(output) }
        }
    }
}
