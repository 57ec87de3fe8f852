import Dispatch

/// A priority queue of work with a concurrency limit: the next item to start is the one with
/// the highest priority, first-in first-out among equals. Used for each pipeline stage (data
/// loading, decoding, processing, disk I/O).
///
/// Confined to its pipeline's coordinator queue (`queue`): every method must be called on it,
/// and every `finish` callback hops back to it. Work bodies start on the coordinator and move their heavy
/// part elsewhere themselves.
final class WorkQueue: @unchecked Sendable {
    /// One queued or running piece of work.
    final class Item: @unchecked Sendable {
        // Confined to the coordinator queue like the WorkQueue itself.
        // Dropped once the work starts or is cancelled while pending: a job keeps its work item
        // and the work captures the job (and its inputs), so holding it longer would be a cycle.
        fileprivate var work: ((@escaping @Sendable () -> Void) -> Void)?
        fileprivate var onCancel: (() -> Void)?
        fileprivate var sequence: Int
        fileprivate(set) var priority: ImageRequest.Priority
        fileprivate(set) var state = State.pending
        fileprivate weak var queue: WorkQueue?
        fileprivate var didFinish = false

        enum State { case pending, running, finished, cancelled }

        fileprivate init(priority: ImageRequest.Priority, sequence: Int, work: @escaping (@escaping @Sendable () -> Void) -> Void) {
            self.priority = priority
            self.sequence = sequence
            self.work = work
        }

        /// Sets what to do if the item is cancelled while running (e.g. cancel a download).
        func setCancellationHandler(_ handler: @escaping () -> Void) { onCancel = handler }

        /// Changes the priority; a pending item moves to its new place in line.
        func setPriority(_ priority: ImageRequest.Priority) {
            guard priority != self.priority else { return }
            self.priority = priority
            if state == .pending { queue?.requeue(self) }
        }

        /// Removes a pending item, or runs the cancellation handler of a running one.
        func cancel() {
            switch state {
            case .pending:
                state = .cancelled
                work = nil
                queue?.pendingCount -= 1
            case .running:
                state = .cancelled
                onCancel?()
                onCancel = nil
            case .finished, .cancelled:
                break
            }
        }
    }

    let name: String
    /// The coordinator queue this work queue is confined to.
    let queue: DispatchQueue
    /// How many items may run at once.
    var maxConcurrentCount: Int {
        didSet { drain() }
    }
    /// Whether queued work may start (a pipeline suspends queues only in tests).
    var isSuspended = false {
        didSet { if !isSuspended { drain() } }
    }

    // One FIFO per priority; stale entries (cancelled or moved) are skipped when popped.
    private var buckets: [[(item: Item, sequence: Int)]] = Array(repeating: [], count: ImageRequest.Priority.allCases.count)
    private var heads = Array(repeating: 0, count: ImageRequest.Priority.allCases.count)
    private var nextSequence = 0
    private(set) var runningCount = 0
    fileprivate(set) var pendingCount = 0

    init(name: String, maxConcurrentCount: Int, queue: DispatchQueue) {
        self.name = name
        self.queue = queue
        self.maxConcurrentCount = max(1, maxConcurrentCount)
    }

    /// Queues `work`. The body receives `finish`, which it must call exactly once when the work
    /// is done (from any thread).
    @discardableResult
    func add(priority: ImageRequest.Priority, _ work: @escaping (_ finish: @escaping @Sendable () -> Void) -> Void) -> Item {
        let item = Item(priority: priority, sequence: nextSequence, work: work)
        nextSequence += 1
        item.queue = self
        pendingCount += 1
        buckets[priority.rawValue].append((item, item.sequence))
        drain()
        return item
    }

    fileprivate func requeue(_ item: Item) {
        item.sequence = nextSequence
        nextSequence += 1
        buckets[item.priority.rawValue].append((item, item.sequence))
        drain()
    }

    private func popNext() -> Item? {
        for index in stride(from: buckets.count - 1, through: 0, by: -1) {
            while heads[index] < buckets[index].count {
                let entry = buckets[index][heads[index]]
                heads[index] += 1
                if heads[index] > 64 && heads[index] * 2 > buckets[index].count {
                    buckets[index].removeFirst(heads[index])
                    heads[index] = 0
                }
                // Skip entries left behind by a cancel or a priority change.
                if entry.item.state == .pending && entry.item.sequence == entry.sequence && entry.item.priority.rawValue == index {
                    return entry.item
                }
            }
        }
        return nil
    }

    private func drain() {
        while !isSuspended && runningCount < maxConcurrentCount, let item = popNext() {
            pendingCount -= 1
            runningCount += 1
            item.state = .running
            let work = item.work
            item.work = nil
            work? { [self, item] in
                // `finish` may be called from any thread; the bookkeeping happens on the coordinator.
                self.queue.async {
                    guard !item.didFinish else { return }
                    item.didFinish = true
                    if item.state == .running { item.state = .finished }
                    item.onCancel = nil
                    self.runningCount -= 1
                    self.drain()
                }
            }
        }
    }
}
