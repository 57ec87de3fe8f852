import Foundation

/// A type-erased ``Processing``: equal only to a processor of the same concrete type that its
/// `==` finds equal.
public struct AnyProcessor: Processing {
    private let processor: Any
    private let processClosure: (Image) -> Image?
    private let isEqual: (Any) -> Bool

    /// Wraps `processor`.
    public init<P: Processing>(_ processor: P) {
        self.processor = processor
        self.processClosure = { processor.process($0) }
        self.isEqual = { other in (other as? P) == processor }
    }

    /// Runs the wrapped processor.
    public func process(_ image: Image) -> Image? {
        processClosure(image)
    }

    /// `true` when both wrap the same concrete type and that type's `==` says equal.
    public static func == (lhs: AnyProcessor, rhs: AnyProcessor) -> Bool {
        lhs.isEqual(rhs.processor)
    }
}
