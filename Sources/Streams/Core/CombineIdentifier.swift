import Synchronization

/// A unique identifier for identifying publisher streams.
///
/// Created either fresh (from a process-wide atomic counter) or from an object's identity.
public struct CombineIdentifier: Hashable, Sendable, CustomStringConvertible {
    private static let counter = Atomic<UInt64>(0)
    private let rawValue: UInt64

    /// Creates a unique identifier.
    public init() {
        rawValue = CombineIdentifier.counter.wrappingAdd(1, ordering: .relaxed).newValue | (1 << 63)
    }

    /// Creates an identifier derived from the identity of the given object.
    public init(_ obj: AnyObject) {
        rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj)))
    }

    /// A textual representation of the identifier.
    public var description: String {
        "0x" + String(rawValue, radix: 16)
    }
}

/// A protocol for uniquely identifying publisher streams.
public protocol CustomCombineIdentifierConvertible {
    /// A unique identifier for identifying publisher streams.
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    /// For classes, the identifier is derived from the object's identity.
    public var combineIdentifier: CombineIdentifier {
        CombineIdentifier(self)
    }
}
