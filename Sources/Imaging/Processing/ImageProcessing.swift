/// A step that turns one image into another: resize, crop, round, blur…
///
/// Processors are values that describe *what* to do; ``process(_:)`` does it. They run off the
/// caller's thread (the pipeline runs them on its processing queue), so they are `Sendable` and
/// must not touch shared mutable state.
///
/// Every built-in processor returns an image in the **same pixel format** as its input
/// (straight-alpha in, straight-alpha out; premultiplied in, premultiplied out). Internally,
/// resampling and blurring work on premultiplied pixels; that conversion is skipped when the
/// input ``Image/isOpaque``.
///
/// Two identifiers key the caches:
/// - ``identifier`` is a stable string that becomes part of disk-cache keys: equal processors
///   have equal identifiers, processors with different parameters have different ones, and the
///   string never changes between runs or releases of the same processor.
/// - ``hashableIdentifier`` is a cheap hashable value for memory-cache keys, with the same
///   equality as ``identifier``.
///
/// The built-in processors live in ``ImageProcessors`` and have static factories, so call
/// sites read `[.resize(width: 256), .circle()]`.
public protocol ImageProcessing: Sendable {
    /// Returns the processed image, or throws ``ImageProcessingError`` when it cannot be made.
    ///
    /// Processors may return `image` itself when there is nothing to do (for example a resize
    /// that would upscale when upscaling is off).
    func process(_ image: Image) throws -> Image

    /// A stable string naming this processor and all its parameters, used in disk-cache keys,
    /// e.g. `com.comet.resize?width=256&height=256&contentMode=aspectFill&crop=false&upscale=false&filter=lanczos3`.
    var identifier: String { get }

    /// A cheap hashable value equal exactly when ``identifier`` is equal; used in memory-cache
    /// keys. Defaults to the processor itself when it is `Hashable`, else to ``identifier``.
    var hashableIdentifier: AnyHashable { get }
}

extension ImageProcessing {
    /// The ``identifier`` string, wrapped.
    public var hashableIdentifier: AnyHashable { AnyHashable(identifier) }
}

extension ImageProcessing where Self: Hashable {
    /// The processor itself: hashing the value is cheaper than building the identifier string.
    public var hashableIdentifier: AnyHashable { AnyHashable(self) }
}
