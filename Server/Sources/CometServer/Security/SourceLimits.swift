import Comet
import Foundation

/// What one request's source may be: the server's limits (``ServerConfiguration``), each
/// lowered by the URL's security options (`msfs`, `msr`, `maf`, `mafr`; never raised).
///
/// The pipeline holds every source to the server's own limits; a lower one of a URL is checked
/// by the server on the fetched bytes before they are decoded (``check(_:)-(Data)``), and the animation
/// limits on the animation's header (``check(_:)-(AnimationHeader)``). Thread-safe (a value).
public struct SourceLimits: Sendable, Hashable {
    /// The most bytes (`--max-source-bytes`, `msfs`).
    public var maximumBytes: Int
    /// The most pixels the source may declare (`--max-source-pixels`, `msr`).
    public var maximumPixels: Int
    /// The most frames an animation may have to stay animated (`--max-animation-frames`,
    /// `maf`); 1 keeps none.
    public var maximumAnimationFrames: Int
    /// The most pixels all frames of an animation may have together (`--max-animation-pixels`).
    public var maximumAnimationPixels: Int
    /// The most pixels one frame of an animation that stays animated may have (`mafr`), or `nil`.
    public var maximumAnimationFramePixels: Int?
    /// Whether a limit is lower than the pipeline's (the server's), so that the server checks the
    /// fetched bytes before they are decoded.
    public var checksBeforeDecoding = false

    /// The server's own limits.
    public init(_ configuration: ServerConfiguration) {
        maximumBytes = configuration.fetchLimits.maximumBytes
        maximumPixels = configuration.maximumSourcePixels
        maximumAnimationFrames = configuration.maximumAnimationFrames
        maximumAnimationPixels = configuration.maximumAnimationPixels
    }

    /// Throws `422` when `data` (a whole source) has more bytes, or declares more pixels, than
    /// these limits allow. The declared size is read from the file's header alone (a decode
    /// refused at its header, which Comet's decoders check before any work in proportion to the
    /// image).
    public func check(_ data: Data) throws(ServiceError) {
        guard data.count <= maximumBytes else {
            throw .tooLarge("the source has \(data.count) bytes, more than the \(maximumBytes) allowed (msfs)")
        }
        guard let (width, height) = Self.declaredSize(of: data) else { return }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maximumPixels else {
            throw .tooLarge(
                "the source declares \(width)×\(height) pixels, more than the \(maximumPixels) allowed (msr)")
        }
    }

    /// Throws `422` when an animation that stays animated declares, in its `header`, more frames,
    /// more pixels in one frame or more pixels in all its frames than these limits allow.
    public func check(_ header: AnimationHeader) throws(ServiceError) {
        guard header.frameCount <= maximumAnimationFrames else {
            throw .tooLarge(
                "the animation has \(header.frameCount) frames, more than the \(maximumAnimationFrames) allowed "
                    + "(--max-animation-frames, maf)")
        }
        if let framePixels = maximumAnimationFramePixels, header.width * header.height > framePixels {
            throw .tooLarge(
                "the animation's frames of \(header.width)×\(header.height) have more pixels than the \(framePixels) "
                    + "allowed (mafr)")
        }
        guard header.totalPixels <= maximumAnimationPixels else {
            throw .tooLarge(
                "the animation's \(header.frameCount) frames of \(header.width)×\(header.height) have more pixels "
                    + "together than the \(maximumAnimationPixels) allowed (--max-animation-pixels)")
        }
    }

    /// The width and height `data` declares, or `nil` when it is no image Comet decodes (the
    /// decode then says why).
    static func declaredSize(of data: Data) -> (width: Int, height: Int)? {
        // With no pixel allowed, a decoder stops at the header and reports the declared size.
        let options = ImageDecodingOptions(limits: ImageDecodingLimits(maxSourcePixelCount: 0))
        do {
            let decoded = try ImageDecoders.decode(data, options: options)
            return (decoded.image.width, decoded.image.height)
        } catch {
            if case .tooLarge(let width, let height, _) = error { return (width, height) }
            return nil
        }
    }
}
