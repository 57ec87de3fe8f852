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
/// Confined to its pipeline's graph (``PipelineExecutor``): every method runs there, and
/// subscriber handlers are called there, synchronously.
class Job<Value>: @unchecked Sendable {
    // @unchecked Sendable: confined to the pipeline's graph (PipelineExecutor).
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
        fileprivate var handler: ((Event) -> Void)?
        fileprivate(set) var priority: ImageRequest.Priority

        fileprivate init(job: Job, priority: ImageRequest.Priority, handler: @escaping (Event) -> Void) {
            self.job = job
            self.priority = priority
            self.handler = handler
        }

        func setPriority(_ priority: ImageRequest.Priority) {
            job?.executor.assertIsCurrent()
            guard priority != self.priority else { return }
            self.priority = priority
            job?.updatePriority()
        }

        func unsubscribe() {
            job?.executor.assertIsCurrent()
            job?.remove(self)
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
    private(set) var priority = ImageRequest.Priority.veryLow
    private(set) var isDone = false
    private var isStarted = false

    /// The queued or running work of this job, cancelled with it and kept at its priority.
    var workItem: WorkQueue.Item? {
        didSet { workItem?.setPriority(priority) }
    }
    private var dependency: (any JobDependency)?

    var subscriberCount: Int { soleSubscription == nil ? subscriptions.count : 1 }

    init(executor: PipelineExecutor) {
        self.executor = executor
    }

    /// Adds a subscriber; starts the job for the first one. `nil` when the job is already done.
    func subscribe(priority: ImageRequest.Priority, _ handler: @escaping (Event) -> Void) -> Subscription? {
        executor.assertIsCurrent()
        guard !isDone else { return nil }
        let subscription = Subscription(job: self, priority: priority, handler: handler)
        insert(subscription)
        // A new subscriber can only raise the priority: no scan of the others (1 000 coalesced
        // requests would make that quadratic).
        if subscriberCount == 1 || priority > self.priority { raisePriority(to: priority) }
        if !isStarted {
            isStarted = true
            start()
        } else {
            didAddLateSubscriber(subscription)
        }
        return subscription
    }

    /// Begins the work. Subclasses override.
    func start() {}

    /// A subscriber joined a job that was already running. Subclasses may replay state.
    func didAddLateSubscriber(_ subscription: Subscription) {}

    /// Called when the job is cancelled because nobody wants it any more. Subclasses override
    /// to stop work that is not a ``workItem``.
    func didCancel() {}

    /// Called once when the job is done (finished, failed or cancelled), after its subscribers
    /// were dropped. Subclasses override to leave their pool (a method, not a closure the pool
    /// sets: that closure was an allocation per job).
    func didEnd() {}

    /// Sends `event` to one subscriber only (for replays).
    func send(_ event: Event, to subscription: Subscription) {
        subscription.handler?(event)
    }

    /// Sends `event` to every subscriber; a final value or an error ends the job.
    func send(_ event: Event) {
        executor.assertIsCurrent()
        guard !isDone else { return }
        let isFinal: Bool
        switch event {
        case .value(_, let isCompleted): isFinal = isCompleted
        case .error: isFinal = true
        case .progress: isFinal = false
        }
        if isFinal { isDone = true }
        if let soleSubscription {
            soleSubscription.handler?(event)
        } else {
            for subscription in Array(subscriptions.values) { subscription.handler?(event) }
        }
        if isFinal { finishUp() }
    }

    /// Subscribes this job to `upstream`; the subscription follows this job's priority and is
    /// dropped when this job is done. `nil` when upstream was already done.
    @discardableResult
    func depend<U>(on upstream: Job<U>, _ handler: @escaping (Job<U>.Event) -> Void) -> Bool {
        guard let subscription = upstream.subscribe(priority: priority, handler) else { return false }
        // Upstream may have finished this job synchronously (a cache hit) inside subscribe.
        if !isDone { dependency = subscription }
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

    private func remove(_ subscription: Subscription) {
        if soleSubscription === subscription {
            soleSubscription = nil
        } else {
            guard subscriptions.removeValue(forKey: ObjectIdentifier(subscription)) != nil else { return }
        }
        guard !isDone else { return }
        if subscriberCount == 0 {
            isDone = true
            workItem?.cancel()
            didCancel()
            finishUp()
        } else {
            updatePriority()
        }
    }

    private func finishUp() {
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
        dependency?.unsubscribe()
        didEnd()
    }

    private func raisePriority(to newPriority: ImageRequest.Priority) {
        guard newPriority != priority else { return }
        priority = newPriority
        workItem?.setPriority(newPriority)
        dependency?.setPriority(newPriority)
    }

    fileprivate func updatePriority() {
        let newPriority = soleSubscription?.priority ?? subscriptions.values.lazy.map(\.priority).max() ?? priority
        guard newPriority != priority else { return }
        priority = newPriority
        workItem?.setPriority(newPriority)
        dependency?.setPriority(newPriority)
    }
}

/// A job's hold on the job it depends on (a subscription, whatever that job's value type).
protocol JobDependency: AnyObject {
    func unsubscribe()
    func setPriority(_ priority: ImageRequest.Priority)
}

extension Job where Value == ImageResult {
    /// Finishes with the memory cache's image for `memoryKey` when the request may read it;
    /// `false` when the cache does not have it.
    func finishFromMemoryCache(_ context: PipelineContext, memoryKey: ImageCacheKey, request: ImageRequest) -> Bool {
        guard let cached = context.cachedImage(for: memoryKey, request: request) else { return false }
        send(.value(cached, isCompleted: true))
        return true
    }

    /// Finishes with the disk cache's encoded image for `key`, decoded on a worker; calls
    /// `compute` (in the graph) when the disk does not have it.
    func finishFromDiskCache(
        _ context: PipelineContext, key: ImageKey, request: ImageRequest,
        otherwise compute: @escaping () -> Void
    ) {
        context.readEncodedImage(key: key, request: request, priority: priority, owner: self) { [weak self] image in
            guard let self, !self.isDone else { return }
            if let image {
                self.send(
                    .value(
                        ImageResult(image: image, isPreview: false, isClean: true, response: nil, cacheType: .disk),
                        isCompleted: true))
            } else {
                compute()
            }
        }
    }
}
