import Foundation

/// Carries a value or closure of the legacy API across threads.
///
/// Haneke's closures and values are not `Sendable` (its API predates Swift concurrency), yet its
/// contract moves them to a background queue and back to main. Safe because the shim hands each
/// boxed item to exactly one place at a time: it never calls or reads it from two threads at once,
/// and every callback is made once, on the main queue (or synchronously on the caller's thread).
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Runs `work` on the main queue, later (Haneke's callbacks all arrive there).
func onMain(_ work: @escaping () -> Void) {
    let box = Unchecked(work)
    DispatchQueue.main.async { box.value() }
}

/// Runs `work` on a global queue (Haneke's "background").
func inBackground(_ work: @escaping () -> Void) {
    let box = Unchecked(work)
    DispatchQueue.global(qos: .default).async { box.value() }
}
