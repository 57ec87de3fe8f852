/// A type of object with a publisher that emits before the object has changed.
///
/// As in Combine, a class that adopts the protocol without declaring `objectWillChange` gets an
/// ``ObservableObjectPublisher`` that emits before any of its `@Published` properties changes
/// (found by reflection, including superclasses' properties, the first time `objectWillChange`
/// is read; later reads return the same publisher). A class with no `@Published` property gets
/// a new, silent publisher on each read.
public protocol ObservableObject: AnyObject {
    /// The type of publisher that emits before the object has changed.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    /// A publisher that emits before the object has changed.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// A publisher that emits before any `@Published` property of the object changes.
    public var objectWillChange: ObservableObjectPublisher {
        var fields: [any PublishedField] = []
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                if let field = child.value as? any PublishedField { fields.append(field) }
            }
            mirror = current.superclassMirror
        }
        guard let first = fields.first else { return ObservableObjectPublisher() }
        let publisher = first.installWillChange(ObservableObjectPublisher())
        for field in fields.dropFirst() { _ = field.installWillChange(publisher) }
        return publisher
    }
}

/// A publisher that publishes a `Void` value before an observable object changes.
///
/// Thread-safety: `send()` may be called from any thread (it is a `PassthroughSubject`'s send).
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
    /// Nothing but the fact of a change.
    public typealias Output = Void
    /// It never fails.
    public typealias Failure = Never

    private let subject = PassthroughSubject<Void, Never>()

    /// Creates an observable object publisher.
    public init() {
        subject.conduitName = "ObservableObjectPublisher"
    }

    /// Attaches a subscriber.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }

    /// Sends the changed value to the downstream subscribers.
    public func send() {
        subject.send(())
    }
}
