import Foundation

/// A node of the task graph: one piece of work (fetch data, decode, run a processor) shared by
/// every subscriber that asks for the same key.
///
/// A job starts when its first subscriber arrives and is cancelled when its last one leaves
/// (cancelling its queued or running work and unsubscribing from the job it depends on, so
/// cancellation climbs the graph). Its priority is the highest of its subscribers', passed on to
/// its work item and its dependency. After its final value or an error it is done and leaves its
/// pool, so a later equal request starts afresh (and usually hits a cache).
///
/// Confined to its pipeline's graph (``PipelineExecutor``): every method takes the graph's
/// ``GraphToken``, and subscriber handlers are called there, synchronously, with it.
class Job<Value>: @unchecked Sendable {
    // @unchecked Sendable: confined to the pipeline's graph (PipelineExecutor).
    /// A subscriber's handler, called in the graph.
    typealias Handler = (borrowing GraphToken, Event) -> Void

    enum Event {
        /// A value: a preview or chunk (`isCompleted == false`), or the final one.
        case value(Value, isCompleted: Bool)
        /// Bytes received so far, and expected in total (0 when unknown).
        case progress(completed: Int64, total: Int64)
        case error(ImagePipeline.Error)
    }

    /// A subscriber's handle: change its priority or leave. It keeps its job alive (a job in
    /// no pool, with coalescing off, lives as long as its subscribers); the job drops every
    /// subscription when it is done, which breaks the cycle.
    final class Subscription: JobDependency {
        fileprivate var job: Job?
        /// Dropped when the subscription ends (the job is done or it unsubscribed): a handler
        /// holds its subscriber strongly, and the subscriber holds this subscription, so keeping
        /// it would be a cycle when a job finishes inside `subscribe` (a cache hit, an error).
        fileprivate var handler: Handler?
        fileprivate var priority: ImageRequest.Priority

        fileprivate init(job: Job, priority: ImageRequest.Priority, handler: @escaping Handler) {
            self.job = job
            self.priority = priority
            self.handler = handler
        }

        func setPriority(_ priority: ImageRequest.Priority, _ graph: borrowing GraphToken) {
            guard priority != self.priority else { return }
            self.priority = priority
            job?.updatePriority(graph)
        }

        func unsubscribe(_ graph: borrowing GraphToken) {
            job?.remove(self, graph)
            job = nil
            handler = nil
        }
    }

    /// The graph this job lives in.
    let executor: PipelineExecutor
    // The subscribers. Most jobs have one, kept without a dictionary (no allocation, no copy
    // of the values on every send); a second moves both into the dictionary.
    private var soleSubscription: Subscription?
    private var subscriptions: [ObjectIdentifier: Subscription] = [:]
    private var currentPriority = ImageRequest.Priority.veryLow
    private var phase = Phase.waiting

    /// Where a job is in its life. It only moves forward: a done job never runs again.
    private enum Phase {
        /// Made, with no subscriber yet.
        case waiting
        /// Started by its first subscriber.
        case running
        /// Finished, failed or cancelled: its subscribers were dropped and it left its pool.
        case done
    }

    /// The queued or running work of this job, cancelled with it and kept at its priority
    /// (``setWorkItem(_:_:)``).
    private var workItem: WorkQueue.Item?
    private var dependency: (any JobDependency)?

    // The state is private and read through methods that take the graph's token, so a closure
    // running elsewhere cannot read it (the class is @unchecked Sendable; the token is what
    // keeps it confined).
    /// Whether the job is done (finished, failed or cancelled).
    func isDone(_ graph: borrowing GraphToken) -> Bool { phase == .done }

    /// The highest priority of the job's subscribers, which its work and dependency run at.
    func priority(_ graph: borrowing GraphToken) -> ImageRequest.Priority { currentPriority }

    private var subscriberCount: Int { soleSubscription == nil ? subscriptions.count : 1 }

    init(executor: PipelineExecutor) {
        self.executor = executor
    }

    /// Makes `item` this job's work: cancelled with the job, and kept at its priority.
    func setWorkItem(_ item: WorkQueue.Item?, _ graph: borrowing GraphToken) {
        workItem = item
        item?.setPriority(currentPriority, graph)
    }

    /// Adds a subscriber; starts the job for the first one. `nil` when the job is already done.
    func subscribe(
        priority: ImageRequest.Priority, _ graph: borrowing GraphToken, _ handler: @escaping Handler
    ) -> Subscription? {
        graph.assertIsGraph(of: executor)
        guard phase != .done else { return nil }
        let subscription = Subscription(job: self, priority: priority, handler: handler)
        insert(subscription)
        // A new subscriber can only raise the priority: no scan of the others (1 000 coalesced
        // requests would make that quadratic).
        if subscriberCount == 1 || priority > currentPriority { raisePriority(to: priority, graph) }
        if phase == .waiting {
            phase = .running
            start(graph)
        } else {
            didAddLateSubscriber(subscription, graph)
        }
        return subscription
    }

    /// Begins the work. Subclasses override.
    func start(_ graph: borrowing GraphToken) {}

    /// A subscriber joined a job that was already running. Subclasses may replay state.
    func didAddLateSubscriber(_ subscription: Subscription, _ graph: borrowing GraphToken) {}

    /// Called when the job is cancelled because nobody wants it any more. Subclasses override
    /// to stop work that is not a ``workItem``.
    func didCancel(_ graph: borrowing GraphToken) {}

    /// Called once when the job is done (finished, failed or cancelled), after its subscribers
    /// were dropped. Subclasses override to leave their pool (a method, not a closure the pool
    /// sets: such a closure would be an allocation per job).
    func didEnd(_ graph: borrowing GraphToken) {}

    /// Sends `event` to one subscriber only (for replays).
    func send(_ event: Event, to subscription: Subscription, _ graph: borrowing GraphToken) {
        subscription.handler?(graph, event)
    }

    /// Sends `event` to every subscriber; a final value or an error ends the job.
    func send(_ event: Event, _ graph: borrowing GraphToken) {
        graph.assertIsGraph(of: executor)
        guard phase != .done else { return }
        let isFinal: Bool
        switch event {
        case .value(_, let isCompleted): isFinal = isCompleted
        case .error: isFinal = true
        case .progress: isFinal = false
        }
        if isFinal { phase = .done }
        if let soleSubscription {
            soleSubscription.handler?(graph, event)
        } else {
            for subscription in Array(subscriptions.values) { subscription.handler?(graph, event) }
        }
        if isFinal { finishUp(graph) }
    }

    /// Subscribes this job to `upstream`; the subscription follows this job's priority and is
    /// dropped when this job is done. `nil` when upstream was already done.
    @discardableResult
    func depend<U>(on upstream: Job<U>, _ graph: borrowing GraphToken, _ handler: @escaping Job<U>.Handler) -> Bool {
        guard let subscription = upstream.subscribe(priority: currentPriority, graph, handler) else { return false }
        // Upstream may have finished this job synchronously (a cache hit) inside subscribe.
        if phase != .done { dependency = subscription }
        return true
    }

    private func insert(_ subscription: Subscription) {
        if soleSubscription == nil && subscriptions.isEmpty {
            soleSubscription = subscription
            return
        }
        if let sole = soleSubscription {
            subscriptions[ObjectIdentifier(sole)] = sole
            soleSubscription = nil
        }
        subscriptions[ObjectIdentifier(subscription)] = subscription
    }

    private func remove(_ subscription: Subscription, _ graph: borrowing GraphToken) {
        if soleSubscription === subscription {
            soleSubscription = nil
        } else {
            guard subscriptions.removeValue(forKey: ObjectIdentifier(subscription)) != nil else { return }
        }
        guard phase != .done else { return }
        if subscriberCount == 0 {
            phase = .done
            workItem?.cancel(graph)
            didCancel(graph)
            finishUp(graph)
        } else {
            updatePriority(graph)
        }
    }

    private func finishUp(_ graph: borrowing GraphToken) {
        soleSubscription?.job = nil
        soleSubscription?.handler = nil
        soleSubscription = nil
        for subscription in subscriptions.values {
            subscription.job = nil
            subscription.handler = nil
        }
        subscriptions.removeAll()
        let dependency = self.dependency
        self.dependency = nil
        dependency?.unsubscribe(graph)
        didEnd(graph)
    }

    private func raisePriority(to newPriority: ImageRequest.Priority, _ graph: borrowing GraphToken) {
        guard newPriority != currentPriority else { return }
        currentPriority = newPriority
        workItem?.setPriority(newPriority, graph)
        dependency?.setPriority(newPriority, graph)
    }

    fileprivate func updatePriority(_ graph: borrowing GraphToken) {
        let newPriority =
            soleSubscription?.priority ?? subscriptions.values.lazy.map(\.priority).max() ?? currentPriority
        raisePriority(to: newPriority, graph)
    }
}

/// A job's hold on the job it depends on (a subscription, whatever that job's value type).
protocol JobDependency: AnyObject {
    func unsubscribe(_ graph: borrowing GraphToken)
    func setPriority(_ priority: ImageRequest.Priority, _ graph: borrowing GraphToken)
}

extension Job where Value == ImageResult {
    /// Finishes with the memory cache's image for `memoryKey` when the request may read it;
    /// `false` when the cache does not have it.
    func finishFromMemoryCache(
        _ context: PipelineContext, memoryKey: ImageCacheKey, request: ImageRequest, _ graph: borrowing GraphToken
    ) -> Bool {
        guard let cached = context.cachedImage(for: memoryKey, request: request) else { return false }
        send(.value(cached, isCompleted: true), graph)
        return true
    }

    /// Finishes with the disk cache's encoded image for `key`, decoded on a worker; calls
    /// `compute` (in the graph) when the disk does not have it.
    func finishFromDiskCache(
        _ context: PipelineContext, key: ImageKey, request: ImageRequest, _ graph: borrowing GraphToken,
        otherwise compute: @escaping (borrowing GraphToken) -> Void
    ) {
        context.readEncodedImage(key: key, request: request, priority: currentPriority, owner: self, graph) {
            [weak self] graph, image in
            guard let self, !self.isDone(graph) else { return }
            if let image {
                self.send(
                    .value(
                        ImageResult(image: image, isPreview: false, isClean: true, response: nil, cacheType: .disk),
                        isCompleted: true), graph)
            } else {
                compute(graph)
            }
        }
    }
}
