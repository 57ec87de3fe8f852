/// An engine's downstream in its own allocation, initialised while the stream is live and
/// moved out when it ends.
///
/// Rather than a `Downstream?` property: a class's `deinit` always runs unspecialised, and
/// destroying an optional of a generic type there looks up `Optional<Downstream>`'s metadata
/// at every stream's end. The cell keeps a pointer and a flag instead.
///
/// Thread-safety: none of its own; the owner reads and writes it under its lock (or as the one
/// thread that owns delivery), and calls ``destroy()`` once, from its `deinit`.
@usableFromInline
struct DownstreamCell<Downstream> {
    @usableFromInline let pointer: UnsafeMutablePointer<Downstream>
    /// The downstream is held: the stream has not ended.
    @usableFromInline private(set) var isLive: Bool

    @inlinable
    init(_ downstream: Downstream) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: downstream)
        isLive = true
    }

    /// The downstream while live.
    @inlinable
    var value: Downstream? {
        isLive ? pointer.pointee : nil
    }

    /// The downstream, for a caller that knows the stream is live.
    @inlinable
    var live: Downstream {
        pointer.pointee
    }

    /// Moves the downstream out (the stream ends); `nil` if it had ended already.
    @inlinable
    mutating func take() -> Downstream? {
        guard isLive else { return nil }
        isLive = false
        return pointer.move()
    }

    /// Frees the allocation, releasing the downstream if still held.
    @inlinable
    func destroy() {
        if isLive { pointer.deinitialize(count: 1) }
        pointer.deallocate()
    }
}
