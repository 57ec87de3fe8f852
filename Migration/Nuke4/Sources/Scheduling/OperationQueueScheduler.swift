import Foundation

/// Runs asynchronous work on an operation queue, at most `maxConcurrentOperationCount` at once
/// (counted until each work calls `finish`), first come first served.
///
/// Work whose token is cancelled before it starts never runs and takes no slot; cancelling a
/// running work frees its slot at once. Thread-safe.
// Work starts outside the lock.
public final class OperationQueueScheduler: AsyncScheduler, Sendable {
    /// The queue work is started on.
    public let queue: OperationQueue

    private typealias Closure = (@escaping () -> Void) -> Void

    /// One work: who it is and how it is cancelled. Its closure lives in the scheduler's state.
    private final class Work: Sendable {
        let token: CancellationToken?
        /// Unique among the scheduler's works (an object's address may be reused).
        let id: Int
        let observation = CancellationObservation()
        init(token: CancellationToken?, id: Int) {
            self.token = token
            self.id = id
        }
    }

    /// The works waiting, with their closures (taken out when a work starts or is cancelled
    /// first: whatever a closure captures must not live as long as the work's cancellation
    /// handler), and those running.
    private struct Slots {
        var pending: [(work: Work, closure: Closure)] = []
        var running: Set<Int> = []
        var lastID = 0
    }

    private let slots = LockedValue(Slots())

    /// Creates a scheduler with its own queue, running at most `maxConcurrentOperationCount`
    /// works at once.
    public convenience init(maxConcurrentOperationCount: Int) {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = maxConcurrentOperationCount
        self.init(queue: queue)
    }

    /// Creates a scheduler for `queue`; its `maxConcurrentOperationCount` is the limit (no
    /// limit when it is `OperationQueue.defaultMaxConcurrentOperationCount`).
    public init(queue: OperationQueue) {
        self.queue = queue
    }

    /// Queues `closure`; it runs when a slot is free, unless `token` is cancelled by then.
    public func execute(token: CancellationToken?, closure: @escaping (_ finish: @escaping () -> Void) -> Void) {
        guard token?.isCancelling != true else { return }
        let work = slots.withLock { slots in
            slots.lastID += 1
            let work = Work(token: token, id: slots.lastID)
            slots.pending.append((work, closure))
            return work
        }
        work.observation.attach(to: token) { [weak self] in self?.finish(work) }
        startNext()
    }

    private var limit: Int {
        let count = queue.maxConcurrentOperationCount
        return count <= 0 ? Int.max : count
    }

    private func startNext() {
        let limit = self.limit
        let toStart: [(work: Work, closure: Unchecked<Closure>)] = slots.withLock { slots in
            slots.pending.removeAll { $0.work.token?.isCancelling == true }
            var started: [(Work, Unchecked<Closure>)] = []
            while slots.running.count < limit, !slots.pending.isEmpty {
                let (work, closure) = slots.pending.removeFirst()
                slots.running.insert(work.id)
                started.append((work, Unchecked(closure)))
            }
            return started
        }
        for (work, closure) in toStart {
            queue.addOperation { [weak self] in
                guard work.token?.isCancelling != true else {
                    self?.finish(work)
                    return
                }
                closure.value { self?.finish(work) }
            }
        }
    }

    /// Frees the work's slot once (a cancelled pending work just leaves the queue) and drops
    /// its cancellation handler.
    private func finish(_ work: Work) {
        work.observation.end()
        let freed: Bool = slots.withLock { slots in
            if let index = slots.pending.firstIndex(where: { $0.work === work }) {
                slots.pending.remove(at: index)
                return false
            }
            return slots.running.remove(work.id) != nil
        }
        if freed { startNext() }
    }
}
