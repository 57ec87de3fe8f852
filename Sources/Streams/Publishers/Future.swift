import Locking
import Synchronization

/// A publisher that eventually produces a single value and then finishes or fails.
///
/// The closure passed to the initialiser runs **immediately** (once, in `init`), like Combine's
/// `Future`. The first call to the promise fixes the result; later calls are ignored. Every
/// subscriber — including ones that subscribe after the promise was fulfilled — receives the
/// result: a value is sent (followed by `.finished`) once that subscriber demands at least one
/// value; a failure is sent without waiting for demand.
///
/// Thread-safety: the promise may be called from any thread; a lock guards the result and the
/// subscriber list, and no lock is held while calling subscribers.
public final class Future<Output, Failure: Error>: Publisher, @unchecked Sendable {
    /// A closure that fulfils the future. Call it once, from any thread.
    public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

    private struct State {
        var result: Result<Output, Failure>?
        var conduits: [FutureConduitBase<Output, Failure>] = []
    }

    private let state = Locked(State())

    /// Creates a publisher that invokes a promise closure when the publisher emits an element.
    ///
    /// - Parameter attemptToFulfill: Runs immediately with the promise to call once the result
    ///   is known.
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill { [self] result in self.fulfill(result) }
    }

    private func fulfill(_ result: Result<Output, Failure>) {
        let conduits = state.withLock { state -> [FutureConduitBase<Output, Failure>] in
            guard state.result == nil else { return [] }
            state.result = result
            defer { state.conduits = [] }
            return state.conduits
        }
        for conduit in conduits {
            conduit.fulfill(result)
        }
    }

    fileprivate func remove(_ conduit: FutureConduitBase<Output, Failure>) {
        let removed = state.withLock { state -> FutureConduitBase<Output, Failure>? in
            guard let index = state.conduits.firstIndex(where: { $0 === conduit }) else { return nil }
            return state.conduits.remove(at: index)
        }
        _ = removed
    }

    /// Attaches the subscriber; it receives the result when available and demanded.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = FutureConduit(parent: self, downstream: subscriber)
        let result = state.withLock { state -> Result<Output, Failure>? in
            if state.result == nil { state.conduits.append(conduit) }
            return state.result
        }
        subscriber.receive(subscription: conduit)
        conduit.open(with: result)
    }
}

extension Future where Failure == Never {
    /// Creates a future whose result is produced by an async operation, started right away in a
    /// new unstructured `Task`. The task is not cancelled when subscribers cancel (a `Future`
    /// is shared); use ``Publishers/TaskPublisher`` for a lazy, cancellable alternative.
    public convenience init(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable () async -> sending Output
    ) {
        self.init { promise in
            Task(priority: priority) {
                promise(.success(await operation()))
            }
        }
    }
}

extension Future where Failure == Error {
    /// Creates a future whose result is produced by a throwing async operation, started right
    /// away in a new unstructured `Task`; a thrown error becomes the failure.
    public convenience init(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable () async throws -> sending Output
    ) {
        self.init { promise in
            Task(priority: priority) {
                do {
                    promise(.success(try await operation()))
                } catch {
                    promise(.failure(error))
                }
            }
        }
    }
}

/// Type-erased per-subscriber delivery slot of a ``Future``.
class FutureConduitBase<Output, Failure: Error>: @unchecked Sendable {
    func fulfill(_ result: Result<Output, Failure>) {}
}

/// One subscriber's view of a future. Its state (result, demand, open flag) is behind a lock;
/// the downstream is called only after the state was taken out of it.
private final class FutureConduit<Downstream: Subscriber>: FutureConduitBase<Downstream.Input, Downstream.Failure>,
    @unchecked Sendable,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private struct State {
        var downstream: Downstream?
        var result: Result<Output, Failure>?
        var hasDemand = false
        var isOpen = false
        /// Subscribed while the future was pending, and not cancelled: the mirror shows the
        /// future as its parent (as Combine's conduit keeps it).
        var showsParent = false
    }

    private let parent: Future<Output, Failure>
    private let state: Locked<State>

    init(parent: Future<Output, Failure>, downstream: Downstream) {
        self.parent = parent
        state = Locked(State(downstream: downstream))
    }

    var description: String { "Future" }

    var playgroundDescription: Any { description }

    /// As Combine's conduit: the future (as `parent` and `subject`, an optional: `nil` for a
    /// subscriber that came after the future was fulfilled, or once cancelled), the downstream
    /// while the stream is live, and whether any demand arrived.
    var customMirror: Mirror {
        let (downstream, demanded, showsParent) = state.withLock { ($0.downstream, $0.hasDemand, $0.showsParent) }
        let parent: Future<Output, Failure>? = showsParent ? self.parent : nil
        return Mirror(
            self,
            children: [
                ("parent", parent as Any), downstreamChild(downstream), ("hasAnyDemand", demanded),
                ("subject", parent as Any),
            ])
    }

    func open(with result: Result<Output, Failure>?) {
        state.withLock { state in
            state.isOpen = true
            state.showsParent = result == nil && state.downstream != nil
            if state.result == nil { state.result = result }
        }
        deliverIfReady()
    }

    override func fulfill(_ result: Result<Output, Failure>) {
        state.withLock { $0.result = result }
        deliverIfReady()
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        guard demand > 0 else { return }
        state.withLock { $0.hasDemand = true }
        deliverIfReady()
    }

    func cancel() {
        let dropped = state.withLock { state -> Downstream? in
            defer {
                state.downstream = nil
                state.showsParent = false
            }
            return state.downstream
        }
        if dropped != nil { parent.remove(self) }
    }

    private func deliverIfReady() {
        let ready = state.withLock { state -> (Downstream, Result<Output, Failure>)? in
            guard state.isOpen, let downstream = state.downstream, let result = state.result else { return nil }
            if case .success = result, !state.hasDemand { return nil }
            state.downstream = nil
            return (downstream, result)
        }
        guard let (downstream, result) = ready else { return }
        switch result {
        case .success(let value):
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
    }
}
