import Foundation

/// The shim's own cancellation handlers, withdrawn from the token's source once the work they
/// guard has ended.
///
/// A handler that captures the work, which captures the token, which holds the source, forms a
/// cycle through the source's list of handlers; a source that is never cancelled (the common
/// case when a load simply completes) would keep every finished load alive. Each piece of work
/// therefore attaches its handler through an observation and ends it when the work is done.
/// ``end()`` may come before, during or after ``attach(to:_:)``; a handler attached after the
/// end is never registered. Thread-safe.
final class CancellationObservation: Sendable {
    private struct State {
        var registration: (source: CancellationTokenSource, id: Int)?
        var ended = false
    }

    // Registering and unregistering happen outside the lock.
    private let state = LockedValue(State())

    init() {}

    /// Registers `closure` on `token` (nothing when `token` is `nil` or the work has ended).
    func attach(to token: CancellationToken?, _ closure: @escaping () -> Void) {
        guard let token, !state.withLock({ $0.ended }) else { return }
        guard let id = token.source.register(closure) else { return }
        let endedMeanwhile: Bool = state.withLock { state in
            if state.ended { return true }
            state.registration = (token.source, id)
            return false
        }
        if endedMeanwhile { token.source.unregister(id) }
    }

    /// Withdraws the handler: the work is over. Idempotent.
    func end() {
        let registration: (source: CancellationTokenSource, id: Int)? = state.withLock { state in
            state.ended = true
            defer { state.registration = nil }
            return state.registration
        }
        if let registration { registration.source.unregister(registration.id) }
    }
}
