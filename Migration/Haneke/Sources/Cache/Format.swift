import Foundation

/// A named variant of the values in a ``Cache``: an optional transform applied before caching,
/// its own memory level and its own disk level of `diskCapacity` bytes.
public struct Format<T> {
    /// The format's name (also its directory under the cache's).
    public let name: String
    /// The most bytes its disk level keeps (least recently used files go first). Default: unlimited.
    public let diskCapacity: UInt64
    /// Applied to each value before it is cached (on a background queue). `nil`: the identity.
    public var transform: ((T) -> T)?
    /// Encodes a value for disk instead of its `asData()` (e.g. JPEG at a chosen quality).
    public var convertToData: ((T) -> Data)?

    /// A format named `name` with an optional `transform`.
    public init(name: String, diskCapacity: UInt64 = UInt64.max, transform: ((T) -> T)? = nil) {
        self.name = name
        self.diskCapacity = diskCapacity
        self.transform = transform
    }

    /// `value` after the transform (the value itself without one).
    public func apply(_ value: T) -> T {
        transform?(value) ?? value
    }

    /// Whether the format leaves values as they are.
    var isIdentity: Bool { transform == nil }
}
