import Locking

extension Publishers {
    /// A publisher that runs an async operation for each subscriber and publishes its result.
    ///
    /// This is the bridge from `async` code into a stream. Unlike ``Future`` it is lazy and
    /// per-subscriber: a new unstructured `Task` runs the operation when a subscriber first
    /// requests a value; its result is sent as one value followed by `.finished` (or as a
    /// failure, for the throwing form). Cancelling the subscription cancels the task, and
    /// nothing is delivered afterwards.
    ///
    /// ```swift
    /// let publisher = Publishers.TaskPublisher { try await loader.load(url) }
    /// ```
    public struct TaskPublisher<Output: Sendable, Failure: Error>: Publisher, Sendable {
        private let priority: TaskPriority?
        private let operation: @Sendable () async -> Result<Output, Failure>

        /// Creates a publisher of the value returned by a non-throwing async operation.
        public init(priority: TaskPriority? = nil, operation: @escaping @Sendable () async -> Output)
        where Failure == Never {
            self.priority = priority
            self.operation = { .success(await operation()) }
        }

        /// Creates a publisher of the value returned by a throwing async operation; a thrown error
        /// becomes the failure.
        public init(priority: TaskPriority? = nil, operation: @escaping @Sendable () async throws -> Output)
        where Failure == Error {
            self.priority = priority
            self.operation = {
                do {
                    return .success(try await operation())
                } catch {
                    return .failure(error)
                }
            }
        }

        /// Hands the subscriber a subscription that starts the task on the first demand.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(
                subscription: TaskSubscription(downstream: subscriber, priority: priority, operation: operation))
        }
    }
}

/// The part of a task subscription the task itself sees (generic only over `Sendable` types).
private class TaskDelivery<Output: Sendable, Failure: Error>: @unchecked Sendable {
    func deliver(_ result: Result<Output, Failure>) {}
}

/// Starts the task on first demand and delivers its result. The task handle and the terminal
/// flag live in a lock; delivery happens outside it, on the task's thread.
private final class TaskSubscription<Downstream: Subscriber>: TaskDelivery<Downstream.Input, Downstream.Failure>,
    Subscription,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Input: Sendable {
    private struct State {
        var downstream: Downstream?
        var task: Task<Void, Never>?
        var hasStarted = false
    }

    private let state: Locked<State>
    private let priority: TaskPriority?
    private let operation: @Sendable () async -> Result<Downstream.Input, Downstream.Failure>

    init(
        downstream: Downstream,
        priority: TaskPriority?,
        operation: @escaping @Sendable () async -> Result<Downstream.Input, Downstream.Failure>
    ) {
        state = Locked(State(downstream: downstream))
        self.priority = priority
        self.operation = operation
    }

    var description: String { "TaskPublisher" }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        let shouldStart = state.withLock { state -> Bool in
            guard state.downstream != nil, !state.hasStarted else { return false }
            state.hasStarted = true
            return true
        }
        guard shouldStart else { return }
        let operation = self.operation
        let delivery: TaskDelivery<Downstream.Input, Downstream.Failure> = self
        let task = Task(priority: priority) {
            delivery.deliver(await operation())
        }
        let cancelled = state.withLock { state -> Bool in
            guard state.downstream != nil else { return true }
            state.task = task
            return false
        }
        if cancelled { task.cancel() }
    }

    override func deliver(_ result: Result<Downstream.Input, Downstream.Failure>) {
        let downstream = state.withLock { state -> Downstream? in
            defer {
                state.downstream = nil
                state.task = nil
            }
            return state.downstream
        }
        guard let downstream else { return }
        switch result {
        case .success(let value):
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
    }

    func cancel() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.downstream = nil
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
    }
}
