import Locking

/// The subscription of an ``ImageStream`` whose image was in the memory cache: delivers the
/// response and `.finished` on the first non-zero demand, on the requesting thread.
///
/// Thread-safe: the one-shot state is taken out under a lock; a cancel from inside
/// `receive(_:)` suppresses the completion.
final class CachedImageSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible, Sendable
where Downstream.Input == ImageResponse, Downstream.Failure == ImagePipeline.Error {
    // The downstream (not Sendable: Combine's protocols are not) lives in `state`'s lock and is
    // called outside it.
    private struct State {
        var pending: (response: ImageResponse, downstream: Downstream)?
        var isCancelled = false
    }

    private let state: Locked<State>

    init(response: ImageResponse, downstream: Downstream) {
        state = Locked(State(pending: (response, downstream)))
    }

    var description: String { "ImageStream(memory cache)" }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        guard
            let (response, downstream) = state.withLock({ state in
                defer { state.pending = nil }
                return state.pending
            })
        else { return }
        _ = downstream.receive(response)
        if !state.withLock({ $0.isCancelled }) {
            downstream.receive(completion: .finished)
        }
    }

    func cancel() {
        let dropped = state.withLock { state in
            state.isCancelled = true
            defer { state.pending = nil }
            return state.pending
        }
        _ = dropped  // released outside the lock
    }
}
