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
/// Graph-confined (its methods take the graph's ``GraphToken``), except ``Ticket``'s release,
/// which re-enters the graph.
final class DecodedImageBacklog: @unchecked Sendable {
    /// One decoded bitmap's place in the backlog; released when the last copy of its result is dropped.
    final class Ticket: Sendable {
        private let backlog: DecodedImageBacklog
        private let executor: PipelineExecutor

        fileprivate init(backlog: DecodedImageBacklog, executor: PipelineExecutor) {
            self.backlog = backlog
            self.executor = executor
        }

        deinit {
            let backlog = self.backlog
            executor.perform { graph in backlog.release(graph) }
        }
    }

    let limit: Int
    private let executor: PipelineExecutor
    private(set) var count = 0
    /// Called in the graph when a place frees (the decoding queue drains again).
    var onRelease: ((borrowing GraphToken) -> Void)?

    init(limit: Int, executor: PipelineExecutor) {
        self.limit = max(1, limit)
        self.executor = executor
    }

    /// Whether another decode may start.
    func hasRoom(_ graph: borrowing GraphToken) -> Bool { count < limit }

    /// Takes a place for a decode about to start.
    func take(_ graph: borrowing GraphToken) -> Ticket {
        graph.assertIsGraph(of: executor)
        count += 1
        return Ticket(backlog: self, executor: executor)
    }

    private func release(_ graph: borrowing GraphToken) {
        count -= 1
        onRelease?(graph)
    }
}
