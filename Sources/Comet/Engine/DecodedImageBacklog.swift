/// Bounds the decoded bitmaps a pipeline holds that nobody has finished with: decoding, waiting
/// for a processor, or on their way to the caller. A final decode starts only while fewer than
/// ``ImagePipeline/Configuration/decodedImageBacklogLimit`` are out, so decoding slows down when
/// processing or delivery lags instead of piling up bitmaps (the memory cache's images do not
/// count: the cache has its own limits).
///
/// The count follows the bitmap: a decode takes a ``Ticket``, the ``ImageResult`` carries it
/// through the processors (a processed image replaces the decoded one), and delivery keeps it
/// until the caller has the image (an awaiting task has resumed, a completion handler has
/// returned). The last reference to the ticket going away gives its place back.
///
/// Graph-confined (its methods take the graph's ``GraphToken``); a ``Ticket`` is given back
/// from any thread, through the graph.
final class DecodedImageBacklog: @unchecked Sendable {
    /// One decoded bitmap's place in the backlog; given back when the last copy of its result is
    /// dropped.
    ///
    /// The backlog's one cross-thread entry: the last reference goes away wherever the result
    /// ends (the callback queue after a completion handler, an awaiting task's thread, a worker
    /// that dropped a preview, the graph), so `deinit` runs on that thread and touches no graph
    /// state there. It enters the graph with ``PipelineExecutor/perform(_:)``, where the queue
    /// that took the ticket gives the place back and starts what waited for it
    /// (``WorkQueue/ticketReturned(_:)``). `EngineBehaviourTests` drops tickets on other threads.
    final class Ticket: Sendable {
        private let queue: WorkQueue

        fileprivate init(queue: WorkQueue) {
            self.queue = queue
        }

        deinit {
            let queue = self.queue
            queue.executor.perform { graph in queue.ticketReturned(graph) }
        }
    }

    let limit: Int
    private let executor: PipelineExecutor
    private var taken = 0

    init(limit: Int, executor: PipelineExecutor) {
        self.limit = max(1, limit)
        self.executor = executor
    }

    /// How many places are taken.
    func count(_ graph: borrowing GraphToken) -> Int { taken }

    /// Whether another decode may start.
    func hasRoom(_ graph: borrowing GraphToken) -> Bool { taken < limit }

    /// Takes a place for a decode about to start in `queue`, which gets it back with
    /// ``WorkQueue/ticketReturned(_:)``.
    func take(returningTo queue: WorkQueue, _ graph: borrowing GraphToken) -> Ticket {
        graph.assertIsGraph(of: executor)
        taken += 1
        return Ticket(queue: queue)
    }

    /// A place is given back (by ``WorkQueue/ticketReturned(_:)``).
    func release(_ graph: borrowing GraphToken) {
        taken -= 1
    }
}
