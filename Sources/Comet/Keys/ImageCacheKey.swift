/// The key of an entry in an ``ImageCaching`` memory cache.
///
/// The pipeline builds one from what identifies a decoded image: the request's URL (or `imageID`)
/// plus the identifiers of its processors and thumbnail options. Users of a bare ``ImageCache``
/// can use any string, or any `Hashable & Sendable` value.
///
/// Two keys are equal when they wrap equal values of the same type. A key made from a `String`
/// (through either initializer or a string literal) hashes and compares as fast as the string,
/// which keeps a cache hit cheap; other values are hashed once when the key is made and compared
/// with one dynamic cast. Build the key once per request and reuse it.
/// `ImageCacheKey` is a value, `Sendable`, and safe to use from any thread.
public struct ImageCacheKey: Hashable, Sendable {
    private enum Storage: Sendable {
        case string(String)
        case value(ValueBox)
        /// A pipeline key: the box the request made its keys in (no allocation of its own).
        case image(ImageRequest.KeyBox)
    }

    /// A non-string value behind a reference, so the key stays a small, cheaply copied value
    /// (a String or a pointer) and the value's hash is computed once, not on every lookup.
    private final class ValueBox: Sendable {
        let value: any Hashable & Sendable
        let hash: Int

        init(_ value: any Hashable & Sendable) {
            self.value = value
            var hasher = Hasher()
            hasher.combine(ObjectIdentifier(type(of: value)))
            hasher.combine(value)
            hash = hasher.finalize()
        }

        func isEqual(to other: ValueBox) -> Bool {
            self === other || (hash == other.hash && Self.areEqual(value, other.value))
        }

        private static func areEqual<T: Hashable>(_ lhs: T, _ rhs: any Hashable) -> Bool {
            guard let rhs = rhs as? T else { return false }
            return lhs == rhs
        }
    }

    private let storage: Storage

    /// A key made of a string, e.g. an absolute URL string.
    public init(_ string: String) {
        storage = .string(string)
    }

    /// A key made of any hashable, sendable value (a struct of URL and processor identifiers,
    /// say). Passing a `String` is the same as ``init(_:)-(String)``; passing an
    /// `ImageCacheKey` returns that key unchanged. The value's hash is computed here, once.
    public init(_ value: some Hashable & Sendable) {
        if let key = value as? ImageCacheKey {
            self = key
        } else if let string = value as? String {
            storage = .string(string)
        } else {
            storage = .value(ValueBox(value))
        }
    }

    /// The key of a pipeline's result (what ``ImageRequest`` makes for the memory cache).
    init(keyBox: ImageRequest.KeyBox) {
        storage = .image(keyBox)
    }

    /// The wrapped value (a `String` for string keys).
    public var base: any Hashable & Sendable {
        switch storage {
        case let .string(string): string
        case let .value(box): box.value
        case let .image(box): box.key
        }
    }

    /// Whether both keys wrap equal values of the same type.
    public static func == (lhs: ImageCacheKey, rhs: ImageCacheKey) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case let (.string(a), .string(b)): a == b
        case let (.value(a), .value(b)): a.isEqual(to: b)
        case let (.image(a), .image(b)): a === b || a.key.isSameImage(as: b.key)
        default: false
        }
    }

    /// Hashes the wrapped string, or the hash computed when the key was made.
    public func hash(into hasher: inout Hasher) {
        switch storage {
        case let .string(string): hasher.combine(string)
        case let .value(box): hasher.combine(box.hash)
        case let .image(box): hasher.combine(box.key.imageHash)
        }
    }
}

extension ImageCacheKey: ExpressibleByStringLiteral {
    /// A string key from a literal: `cache["https://example.com/a.jpg"]`.
    public init(stringLiteral value: String) {
        self.init(value)
    }
}

extension ImageCacheKey: CustomStringConvertible {
    /// The wrapped value, described.
    public var description: String {
        switch storage {
        case let .string(string): "ImageCacheKey(\(string.debugDescription))"
        case let .value(box): "ImageCacheKey(\(box.value))"
        case let .image(box): "ImageCacheKey(\(box.key))"
        }
    }
}
