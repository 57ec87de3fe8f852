import Locking
import Dispatch

/// What every ``ImageDisplaying`` target is loading: a side table keyed by `ObjectIdentifier`
/// with weak target references (Linux has no associated objects).
///
/// Each load into a target gets a fresh token; anything done for an older token is stale and
/// dropped. Displays for a target go through a per-target queue drained by one thread at a time,
/// outside the lock, and are checked against the current token when taken from the queue — so a
/// stale result is never shown and calls to a target never overlap.
///
/// A released target is noticed when an event of its load arrives, when the table is swept on a
/// new load, and by a sweep that runs every ``sweepInterval`` while loads are in flight; its load
/// is then cancelled.
///
/// Thread-safety: one lock over the table; the lock is never held while calling a target, a
/// transition or a task.
final class ImageTargetRegistry: Sendable {
    // The table lives in `state` (a lock); targets are only called outside it.

    /// The one table (a target can move between pipelines).
    static let shared = ImageTargetRegistry()

    /// How often in-flight loads are checked for released targets.
    static let sweepInterval: DispatchTimeInterval = .milliseconds(200)

    /// A display waiting to be made.
    struct Display {
        let token: UInt64
        let image: Image?
        let isPreview: Bool
        let transition: ImageLoadingOptions.Transition?
    }

    private struct Entry {
        weak var target: (any ImageDisplaying)?
        var token: UInt64
        var task: ImageTask?
        var queue: [Display] = []
        var isDraining = false
        /// The image Comet last displayed in the target (the transition's `old`).
        var lastImage: Image?
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var lastToken: UInt64 = 0
        var sweepThreshold = 64
        var isSweepScheduled = false
    }

    private let state = Locked(State())

    /// Starts a new load for `target`: returns its token and cancels what the target was loading.
    func begin(_ target: any ImageDisplaying) -> UInt64 {
        let id = ObjectIdentifier(target)
        let (token, cancelled) = state.withLock { state -> (UInt64, [ImageTask]) in
            state.lastToken += 1
            var cancelled: [ImageTask] = []
            if var entry = state.entries[id], entry.target === target {
                if let task = entry.task { cancelled.append(task) }
                entry.token = state.lastToken
                entry.task = nil
                entry.queue.removeAll()
                state.entries[id] = entry
            } else {
                // A new target, or a released one whose address was reused.
                if let task = state.entries[id]?.task { cancelled.append(task) }
                state.entries[id] = Entry(target: target, token: state.lastToken)
            }
            if state.entries.count >= state.sweepThreshold {
                cancelled += Self.removeReleased(&state)
                state.sweepThreshold = max(64, state.entries.count * 2)
            }
            return (state.lastToken, cancelled)
        }
        for task in cancelled { task.cancel() }
        return token
    }

    /// Records the task of the load `token`; cancels it if the target has moved on already.
    func attach(_ task: ImageTask, to id: ObjectIdentifier, token: UInt64) {
        let (isCurrent, scheduleSweep) = state.withLock { state -> (Bool, Bool) in
            guard state.entries[id]?.token == token, state.entries[id]?.target != nil else { return (false, false) }
            state.entries[id]?.task = task
            defer { state.isSweepScheduled = true }
            return (true, !state.isSweepScheduled)
        }
        if !isCurrent { task.cancel() }
        if scheduleSweep { self.scheduleSweep() }
    }

    /// The load `token` ended; forgets its task.
    func finish(_ id: ObjectIdentifier, token: UInt64) {
        state.withLock { state in
            if state.entries[id]?.token == token { state.entries[id]?.task = nil }
        }
    }

    /// Cancels what `target` is loading; nothing more of that load is displayed.
    func cancel(_ target: any ImageDisplaying) {
        let id = ObjectIdentifier(target)
        let task = state.withLock { state -> ImageTask? in
            guard var entry = state.entries[id], entry.target === target else { return nil }
            state.lastToken += 1
            defer {
                entry.token = state.lastToken
                entry.task = nil
                entry.queue.removeAll()
                state.entries[id] = entry
            }
            return entry.task
        }
        task?.cancel()
    }

    /// Displays in the target of `id` if `display.token` is still its current load: at once when
    /// no other display for it is running (synchronously, on this thread), otherwise right after
    /// the running one. A released target's load is cancelled instead.
    func perform(_ display: Display, for id: ObjectIdentifier) {
        enum Step { case none, drain(any ImageDisplaying), cancel(ImageTask?) }
        let step = state.withLock { state -> Step in
            guard var entry = state.entries[id], entry.token == display.token else { return .none }
            guard let target = entry.target else {
                state.entries[id] = nil
                return .cancel(entry.task)
            }
            entry.queue.append(display)
            guard !entry.isDraining else {
                state.entries[id] = entry
                return .none
            }
            entry.isDraining = true
            state.entries[id] = entry
            return .drain(target)
        }
        switch step {
        case .none: break
        case .cancel(let task): task?.cancel()
        case .drain(let target): drain(id, target)
        }
    }

    private func drain(_ id: ObjectIdentifier, _ target: any ImageDisplaying) {
        while true {
            let next = state.withLock { state -> (Display, Image?)? in
                // `target` is held strongly here, so the entry cannot belong to another object.
                guard var entry = state.entries[id], entry.target === target else { return nil }
                let current = entry.token
                entry.queue.removeAll { $0.token != current }
                guard !entry.queue.isEmpty else {
                    entry.isDraining = false
                    state.entries[id] = entry
                    return nil
                }
                let display = entry.queue.removeFirst()
                let old = entry.lastImage
                entry.lastImage = display.image
                state.entries[id] = entry
                return (display, old)
            }
            guard let (display, old) = next else { return }
            if let transition = display.transition, let image = display.image {
                transition(target, old, image)
            } else {
                target.display(display.image, isPreview: display.isPreview)
            }
        }
    }

    // MARK: Released targets

    private func scheduleSweep() {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + Self.sweepInterval) { [self] in
            let (cancelled, again) = state.withLock { state -> ([ImageTask], Bool) in
                let cancelled = Self.removeReleased(&state)
                let again = state.entries.values.contains { $0.task != nil }
                state.isSweepScheduled = again
                return (cancelled, again)
            }
            for task in cancelled { task.cancel() }
            if again { scheduleSweep() }
        }
    }

    /// Removes the entries of released targets; returns their tasks to cancel.
    private static func removeReleased(_ state: inout State) -> [ImageTask] {
        var cancelled: [ImageTask] = []
        state.entries = state.entries.filter { _, entry in
            if entry.target != nil { return true }
            if let task = entry.task { cancelled.append(task) }
            return false
        }
        return cancelled
    }

    /// Entries in the table (tests).
    var count: Int { state.withLock { $0.entries.count } }
}
