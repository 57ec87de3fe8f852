import Locking

/// A type that publishes a property marked with an attribute.
///
/// `@Published var name = ""` in a class gives a `$name` publisher that emits the current value
/// to each new subscriber and every new value after it, **before** the property changes (read
/// inside a subscriber, the property still holds the old value, as in Combine). When the class
/// is an ``ObservableObject``, its `objectWillChange` emits just before that.
///
/// Like Combine's, `@Published` works only on class properties (the wrapper reaches its
/// enclosing instance); on a struct property it does not compile. Differences from Combine:
/// assigning to `$name` has no effect, and copies of the wrapper share one storage.
///
/// Thread-safety: the value lives in a lock; setting it from several threads at once is safe,
/// but the order subscribers see is the order the sets took the lock.
@propertyWrapper
public struct Published<Value> {
    let box: PublishedBox<Value>

    /// Creates the publisher with an initial value.
    public init(wrappedValue: Value) {
        box = PublishedBox(wrappedValue)
    }

    /// Creates the publisher with an initial value.
    public init(initialValue: Value) {
        self.init(wrappedValue: initialValue)
    }

    /// Not available: `@Published` is for class properties only.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError() }
        set { fatalError() }  // swiftlint:disable:this unused_setter_value
    }

    /// The property's publisher (`$property`). It is settable only so that `&$property` can be
    /// passed to ``Streams/Publisher/assign(to:)``: assigning another publisher to it changes
    /// nothing (Combine would replace the property's storage).
    public var projectedValue: Publisher {
        get { Publisher(box: box) }
        set {}  // swiftlint:disable:this unused_setter_value
    }

    /// Reads and writes the property of a class instance (used by the compiler for
    /// `instance.property`).
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].box.value }
        set { object[keyPath: storageKeyPath].box.set(newValue) }
    }

    /// The publisher of a `@Published` property: the current value on subscription, then each
    /// new value before it is stored.
    public struct Publisher: Streams.Publisher {
        /// The property's type.
        public typealias Output = Value
        /// It never fails.
        public typealias Failure = Never

        let box: PublishedBox<Value>

        /// Attaches a subscriber; it receives the current value on its first demand.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            box.subject.receive(subscriber: subscriber)
        }
    }
}

/// A `@Published` property's storage, found by `ObservableObject`'s reflection.
protocol PublishedField {
    /// Returns the object's will-change publisher: the one already installed, or `publisher`.
    func installWillChange(_ publisher: ObservableObjectPublisher) -> ObservableObjectPublisher
}

extension Published: PublishedField {
    func installWillChange(_ publisher: ObservableObjectPublisher) -> ObservableObjectPublisher {
        box.installWillChange(publisher)
    }
}

/// The shared storage of a `@Published` property: the value the getter reads, the subject that
/// publishes, and the enclosing object's will-change publisher once someone asked for it.
final class PublishedBox<Value>: @unchecked Sendable {
    // @unchecked Sendable: its state is behind its `Locked` lock; the rest is immutable.
    private struct State {
        var value: Value
        var willChange: ObservableObjectPublisher?
        var cancellables: [AnyCancellable] = []
    }

    private let state: Locked<State>
    let subject: CurrentValueSubject<Value, Never>

    init(_ value: Value) {
        state = Locked(State(value: value))
        subject = CurrentValueSubject(value)
        subject.conduitName = "PublishedSubject"
    }

    var value: Value { state.withLock { $0.value } }

    /// Will-change first, then subscribers (which still read the old value), then the store.
    func set(_ newValue: Value) {
        let willChange = state.withLock { $0.willChange }
        willChange?.send()
        subject.send(newValue)
        state.withLock { $0.value = newValue }
    }

    func installWillChange(_ publisher: ObservableObjectPublisher) -> ObservableObjectPublisher {
        state.withLock { state in
            if let existing = state.willChange { return existing }
            state.willChange = publisher
            return publisher
        }
    }

    /// Keeps an `assign(to:)` subscription alive as long as the property.
    func keep(_ cancellable: AnyCancellable) {
        state.withLock { $0.cancellables.append(cancellable) }
    }
}

extension Publisher where Failure == Never {
    /// Republishes elements received from a publisher, by assigning them to a property marked
    /// as a publisher (`publisher.assign(to: &object.$property)`).
    ///
    /// The subscription lives as long as the property's storage (its object); there is no
    /// cancellable to keep. Each value goes through the property's setter path: the object's
    /// `objectWillChange` fires, then the property's subscribers.
    public func assign(to published: inout Published<Output>.Publisher) {
        let box = published.box
        let cancellable = sink { [weak box] value in box?.set(value) }
        box.keep(cancellable)
    }
}
