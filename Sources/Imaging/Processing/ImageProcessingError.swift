/// Why a processor could not produce an image, in words a person can act on.
public struct ImageProcessingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The ``ImageProcessing/identifier`` of the processor that failed.
    public var processor: String
    /// What went wrong.
    public var reason: String

    /// Creates an error for the processor with the given identifier.
    public init(processor: String, reason: String) {
        self.processor = processor
        self.reason = reason
    }

    /// "Image processing failed (<identifier>): <reason>".
    public var description: String { "Image processing failed (\(processor)): \(reason)" }
}
