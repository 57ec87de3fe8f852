import Foundation

/// Runs processors in order; `nil` as soon as one of them fails.
public struct ProcessorComposition: Processing {
    private let processors: [AnyProcessor]

    /// Composes `processors`, applied first to last.
    public init(_ processors: [AnyProcessor]) {
        self.processors = processors
    }

    /// Applies each processor to the previous one's output.
    public func process(_ image: Image) -> Image? {
        var result = image
        for processor in processors {
            guard let next = processor.process(result) else { return nil }
            result = next
        }
        return result
    }

    /// Equal when both hold equal processors in the same order.
    public static func == (lhs: ProcessorComposition, rhs: ProcessorComposition) -> Bool {
        lhs.processors == rhs.processors
    }
}
