import Locking
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Synchronization

/// One request being loaded by a pipeline: await its ``response``, watch its ``events``, change
/// its ``priority`` or ``cancel()`` it.
///
/// Thread-safe. Cancellation is immediate for the caller (``isCancelled`` is `true` when
/// `cancel()` returns, and the task finishes with ``ImagePipeline/Error/cancelled(request:)``);
/// work shared with other tasks continues for them.
public final class ImageTask: @unchecked Sendable, Hashable, CustomStringConvertible {
    // Sendable: `shared` is behind a lock; `subscription` is only touched in the pipeline's graph.

    /// What a task reports while it runs.
    public enum Event: Sendable {
        /// Bytes received so far.
        case progress(Progress)
        /// A progressive preview.
        case preview(ImageResponse)
        /// The end: the final image or the error (cancellation included). Always the last event.
        case finished(Result<ImageResponse, ImagePipeline.Error>)
    }

    /// Where a task is in its life.
    public enum State: Sendable, Hashable {
        /// Loading (or about to).
        case running
        /// Ended by ``ImageTask/cancel()`` (or by its awaiting Swift task being cancelled).
        case cancelled
        /// Finished with an image or an error other than cancellation.
        case completed
    }

    /// Download progress in bytes; `total` is 0 when the size is unknown.
    public struct Progress: Sendable, Hashable {
        public var completed: Int64
        public var total: Int64
        /// `completed / total`, or 0 when the total is unknown.
        public var fraction: Double { total > 0 ? min(1, Double(completed) / Double(total)) : 0 }

        public init(completed: Int64 = 0, total: Int64 = 0) {
            self.completed = completed
            self.total = total
        }
    }

    /// The task's state (``ImageTaskLifecycle``) and the observers its outcome goes to.
    private struct Shared {
        var lifecycle: ImageTaskLifecycle
        var progress = Progress()
        /// The first awaiter, kept apart from the rest: most tasks have exactly one, and an
        /// array would be an allocation per task. Resumed once, under this lock's decision.
        var waiter: UnsafeContinuation<Delivery, any Error>?
        var moreWaiters: [UnsafeContinuation<Delivery, any Error>] = []
        var streams: [AsyncStream<Event>.Continuation] = []
        var progressHandler: (@Sendable (ImageResponse?, Progress) -> Void)?
        var completion: (@Sendable (Result<ImageResponse, ImagePipeline.Error>) -> Void)?

        /// Takes the observers of a task that just finished with `outcome` (none can be added
        /// after), and queues its `finished` event.
        mutating func takeObservers(
            finishedWith outcome: Result<ImageResponse, ImagePipeline.Error>,
            enqueueing enqueueEvent: (ImagePipeline.TaskEvent) -> Void
        ) -> Observers {
            enqueueEvent(.finished(outcome))
            defer {
                waiter = nil
                moreWaiters = []
                streams = []
                completion = nil
                progressHandler = nil
            }
            return Observers(
                outcome: outcome, waiter: waiter, moreWaiters: moreWaiters, streams: streams, completion: completion)
        }
    }

    /// A number unique within the process.
    public let taskId: Int64
    /// The request being loaded.
    public let request: ImageRequest

    private let shared: Locked<Shared>
    private let callbackQueue: DispatchQueue
    private let executor: PipelineExecutor
    /// The graph's shared state (strong, as a job's: in-flight work outlives a released pipeline).
    private let context: PipelineContext
    private weak var pipeline: ImagePipeline?
    /// ``ImagePipeline/Hooks/taskEvent``, `nil` when unset (then no event is made).
    private let eventHook: (@Sendable (ImageTask, ImagePipeline.TaskEvent) -> Void)?
    /// The task's place in the graph: touched only by the methods that take a ``GraphToken``.
    private var subscription: Job<ImageResult>.Subscription?

    private static let nextTaskId = Atomic<Int64>(1)

    init(
        request: ImageRequest, pipeline: ImagePipeline, callbackQueue: DispatchQueue,
        progress: (@Sendable (ImageResponse?, Progress) -> Void)? = nil,
        completion: (@Sendable (Result<ImageResponse, ImagePipeline.Error>) -> Void)? = nil
    ) {
        self.taskId = Self.nextTaskId.add(1, ordering: .relaxed).oldValue
        self.request = request
        self.pipeline = pipeline
        self.callbackQueue = callbackQueue
        self.context = pipeline.context
        self.executor = pipeline.context.executor
        self.shared = Locked(
            Shared(
                lifecycle: ImageTaskLifecycle(priority: request.priority), progressHandler: progress,
                completion: completion))
        self.eventHook = pipeline.configuration.hooks.taskEvent
        enqueueEvent(.created)
    }

    /// Queues `event` for the task-event hook on the callback queue (serial, so events keep
    /// the order they are queued in: after `created`, callers hold the state lock). Free when
    /// no hook is set.
    private func enqueueEvent(_ event: ImagePipeline.TaskEvent) {
        guard let eventHook else { return }
        callbackQueue.async { eventHook(self, event) }
    }

    /// The task's priority; setting it re-orders the task's queued work (shared work runs at
    /// the highest priority of the tasks that share it). A finished task keeps the value it is
    /// given, with nothing left to re-order.
    public var priority: ImageRequest.Priority {
        get { shared.withLock { $0.lifecycle.priority } }
        set {
            guard let priority = shared.withLock({ $0.lifecycle.setPriority(newValue) }) else { return }
            executor.schedule { graph in self.subscription?.setPriority(priority, graph) }
        }
    }

    /// `true` once ``cancel()`` was called.
    public var isCancelled: Bool { shared.withLock { $0.lifecycle.isCancelled } }

    /// Where the task is: running until it finishes, then cancelled or completed.
    public var state: State { shared.withLock { $0.lifecycle.publicState } }

    /// Bytes received so far.
    public var progress: Progress { shared.withLock { $0.progress } }

    /// Cancels the task: it finishes at once with ``ImagePipeline/Error/cancelled(request:)``,
    /// and leaves the work it shared (which stops when no other task wants it) in the graph
    /// shortly after. Idempotent; does nothing after the task finished.
    public func cancel() {
        let finishing = shared.withLock { state -> (Observers, leaveGraph: Bool)? in
            guard case .finish(let outcome, let leaveGraph) = state.lifecycle.cancel(request: request) else {
                return nil
            }
            enqueueEvent(.cancelled)
            return (state.takeObservers(finishedWith: outcome, enqueueing: enqueueEvent), leaveGraph)
        }
        guard let (observers, leaveGraph) = finishing else { return }
        deliver(observers, ticket: nil)
        // A task cancelled before it joined never will (its lifecycle refuses the join).
        if leaveGraph { executor.schedule { graph in self.detach(graph) } }
    }

    /// The final response. Throws ``ImagePipeline/Error``; cancelling the awaiting Swift task
    /// cancels this image task.
    public var response: ImageResponse {
        get async throws {
            try await withTaskCancellationHandler {
                // The delivery carries the result's backlog ticket until this task has resumed.
                let delivery = try await withUnsafeThrowingContinuation {
                    (continuation: UnsafeContinuation<Delivery, any Error>) in
                    let result = shared.withLock { state -> Result<ImageResponse, ImagePipeline.Error>? in
                        if state.lifecycle.outcome == nil {
                            if state.waiter == nil {
                                state.waiter = continuation
                            } else {
                                state.moreWaiters.append(continuation)
                            }
                        }
                        return state.lifecycle.outcome
                    }
                    if let result {
                        continuation.resume(
                            with: result.map { Delivery(response: $0, ticket: nil) }.mapError { $0 as any Error })
                    }
                }
                return delivery.response
            } onCancel: {
                cancel()
            }
        }
    }

    /// The final image (see ``response``).
    public var image: Image {
        get async throws { try await response.image }
    }

    /// The task's events from now on: progress, previews, then `.finished`. Each access makes a
    /// new stream; a stream made after the task finished yields `.finished` at once.
    public var events: AsyncStream<Event> {
        AsyncStream { continuation in
            let result = shared.withLock { state -> Result<ImageResponse, ImagePipeline.Error>? in
                if state.lifecycle.outcome == nil { state.streams.append(continuation) }
                return state.lifecycle.outcome
            }
            if let result {
                continuation.yield(.finished(result))
                continuation.finish()
            }
        }
    }

    // MARK: Driving (in the graph)

    /// Joins the graph. The job is made only for a task still running: a
    /// task cancelled or finished (by invalidation) before it got here must not leave an
    /// unsubscribed job in a pool. A task finished from outside after this check is detached by
    /// the block its finisher enqueues behind this one.
    func start(_ graph: borrowing GraphToken, with makeJob: (borrowing GraphToken) -> Job<ImageResult>) {
        let joins = shared.withLock { state -> Bool in
            guard state.lifecycle.join() == .subscribe else { return false }
            enqueueEvent(.started)
            return true
        }
        guard joins else { return }
        // Strong `self` (a weak one would give every task a side table): the cycle through the
        // job's subscription ends when the task leaves the job (final event, cancel, detach).
        subscription = makeJob(graph).subscribe(priority: priority, graph) { graph, event in self.handle(event, graph) }
        if subscription == nil { finish(.failure(.cancelled(request: request))) }
    }

    /// Joins the graph as a request of its own (the job of exactly its request).
    func startDirect(_ graph: borrowing GraphToken) {
        start(graph) { graph in context.imageJob(for: request, key: request.key, isDirect: true, graph) }
    }

    /// Leaves the graph after the task was finished from outside (cancel, pipeline invalidation).
    func detach(_ graph: borrowing GraphToken) {
        subscription?.unsubscribe(graph)
        subscription = nil
    }

    private func handle(_ event: Job<ImageResult>.Event, _ graph: borrowing GraphToken) {
        switch event {
        case .progress(let completed, let total):
            let progress = Progress(completed: completed, total: total)
            let (handler, streams) = shared.withLock { state in
                state.progress = progress
                if state.lifecycle.outcome == nil { enqueueEvent(.progress(progress)) }
                return (state.progressHandler, state.streams)
            }
            for stream in streams { stream.yield(.progress(progress)) }
            if let handler { callbackQueue.async { handler(nil, progress) } }
        case .value(let result, isCompleted: false):
            let response = makeResponse(result)
            let (handler, streams, progress) = shared.withLock { state in
                if state.lifecycle.outcome == nil { enqueueEvent(.preview(response)) }
                return (state.progressHandler, state.streams, state.progress)
            }
            for stream in streams { stream.yield(.preview(response)) }
            if let handler { callbackQueue.async { handler(response, progress) } }
        case .value(let result, isCompleted: true):
            subscription = nil
            finish(.success(makeResponse(result)), ticket: result.backlogTicket)
        case .error(let error):
            subscription = nil
            finish(.failure(error))
        }
    }

    private func makeResponse(_ result: ImageResult) -> ImageResponse {
        ImageResponse(
            image: result.image, isPreview: result.isPreview, urlResponse: result.response,
            cacheType: result.cacheType, request: request, animation: result.animation)
    }

    /// Ends the task once with `proposed` (a no-op once it has finished): resumes awaiters,
    /// closes event streams, calls the completion handler on the callback queue. `ticket`, the
    /// result's decoded-image backlog ticket, is kept until every awaiter has resumed and the
    /// completion handler has returned. Safe from any thread.
    func finish(_ proposed: Result<ImageResponse, ImagePipeline.Error>, ticket: DecodedImageBacklog.Ticket? = nil) {
        let observers = shared.withLock { state -> Observers? in
            guard case .deliver(let outcome) = state.lifecycle.finish(proposed) else { return nil }
            return state.takeObservers(finishedWith: outcome, enqueueing: enqueueEvent)
        }
        guard let observers else { return }
        deliver(observers, ticket: ticket)
    }

    /// Hands the outcome to everyone who asked for it, outside the lock.
    private func deliver(_ observers: Observers, ticket: DecodedImageBacklog.Ticket?) {
        let outcome = observers.outcome
        let delivery = outcome.map { Delivery(response: $0, ticket: ticket) }.mapError { $0 as any Error }
        observers.waiter?.resume(with: delivery)
        for waiter in observers.moreWaiters { waiter.resume(with: delivery) }
        for stream in observers.streams {
            stream.yield(.finished(outcome))
            stream.finish()
        }
        if let completion = observers.completion {
            callbackQueue.async {
                completion(outcome)
                withExtendedLifetime(ticket) {}
            }
        }
        pipeline?.taskDidFinish(self, result: outcome)
    }

    /// Who gets a finished task's outcome, taken out of its shared state in one step.
    private struct Observers {
        let outcome: Result<ImageResponse, ImagePipeline.Error>
        let waiter: UnsafeContinuation<Delivery, any Error>?
        let moreWaiters: [UnsafeContinuation<Delivery, any Error>]
        let streams: [AsyncStream<Event>.Continuation]
        let completion: (@Sendable (Result<ImageResponse, ImagePipeline.Error>) -> Void)?
    }

    /// A final response on its way to an awaiting task, with the backlog ticket of its bitmap.
    private struct Delivery: Sendable {
        let response: ImageResponse
        let ticket: DecodedImageBacklog.Ticket?
    }

    public static func == (lhs: ImageTask, rhs: ImageTask) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { "ImageTask(\(taskId), \(request))" }
}
