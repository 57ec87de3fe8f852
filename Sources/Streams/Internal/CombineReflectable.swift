/// A subscriber or subscription that shows itself as Combine shows its counterpart: its
/// ``description`` is Combine's name for it (`"Map"`, `"Filter"`, …), a playground shows the same
/// name, and its mirror has the children Combine gives it (none unless the type says otherwise).
///
/// `print()`, debuggers and tools written against Combine read these, so the names follow
/// Combine's, including its quirks.
@usableFromInline
protocol CombineReflectable: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {}

extension CombineReflectable {
    /// No children, unless the type gives its own.
    @inlinable
    var customMirror: Mirror { Mirror(self, children: [:]) }

    /// The name, as in ``description``.
    @inlinable
    var playgroundDescription: Any { description }
}
