/// A publisher that performs type erasure by wrapping another publisher.
///
/// Use it to expose a publisher across an API boundary without exposing its concrete type.
/// Subscribing to an `AnyPublisher` subscribes to the wrapped publisher directly; no extra
/// per-value work is added.
@frozen
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible {
    @usableFromInline let box: AnyPublisherBoxBase<Output, Failure>

    /// Creates a type-erasing publisher to wrap the provided publisher.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            box = erased.box
        } else {
            box = AnyPublisherBox(publisher)
        }
    }

    /// `"AnyPublisher"`.
    public var description: String { "AnyPublisher" }

    /// Subscribes the subscriber to the wrapped publisher.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        box.receive(subscriber: subscriber)
    }
}

/// Abstract base of the erased publisher box; `receive(subscriber:)` is overridden.
@usableFromInline
class AnyPublisherBoxBase<Output, Failure: Error> {
    @inlinable init() {}

    @inlinable
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        fatalError("abstract")
    }
}

@usableFromInline
final class AnyPublisherBox<P: Publisher>: AnyPublisherBoxBase<P.Output, P.Failure> {
    @usableFromInline let base: P

    @inlinable init(_ base: P) {
        self.base = base
    }

    @inlinable
    override func receive<S: Subscriber>(subscriber: S) where S.Input == P.Output, S.Failure == P.Failure {
        base.receive(subscriber: subscriber)
    }
}

extension Publisher {
    /// Wraps this publisher with a type eraser.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}
