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
// Safe: `registration` and `ended` are only touched under `lock`; registering and
// unregistering happen outside it.
final class CancellationObservation: @unchecked Sendable {
    private let lock = NSLock()
    private var registration: (source: CancellationTokenSource, id: Int)?
    private var ended = false

    init() {}

    /// Registers `closure` on `token` (nothing when `token` is `nil` or the work has ended).
    func attach(to token: CancellationToken?, _ closure: @escaping () -> Void) {
        guard let token, !lock.locked({ ended }) else { return }
        guard let id = token.source.register(closure) else { return }
        let endedMeanwhile: Bool = lock.locked {
            if ended { return true }
            registration = (token.source, id)
            return false
        }
        if endedMeanwhile { token.source.unregister(id) }
    }

    /// Withdraws the handler: the work is over. Idempotent.
    func end() {
        let registration: (source: CancellationTokenSource, id: Int)? = lock.locked {
            ended = true
            defer { self.registration = nil }
            return self.registration
        }
        if let registration { registration.source.unregister(registration.id) }
    }
}
