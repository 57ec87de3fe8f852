import Comet

extension ThumbnailPlan {
    /// One operation on the pixels, as a step adds it (``ThumbnailStep``); the plan's
    /// operations run in the order the steps added them.
    ///
    /// The operations after the resize that depend on its result (an extension to its target,
    /// the padding and the watermark, whose pixel sizes are multiplied by the device pixel ratio
    /// the resize honours) are kept as what they ask for and made into processors once that
    /// result is known: at plan time after a plain resize (the ratio is 1 then), or inside a
    /// ``SourceAwareResize``, which knows the ratio only once it sees the source.
    enum Operation: Sendable {
        /// A processor whose work does not depend on the resize; `decodeTimeReduction` is the
        /// thumbnail request that may do it while decoding (a plain fit into a box).
        case process(any ImageProcessing, decodeTimeReduction: ImageRequest.ThumbnailOptions?)
        /// The resize made once the source is known; the operations after it run inside it.
        case resizeBySource(SourceAwareResize)
        /// An extension (`ex`, `exar`) to the resize's target or to its aspect ratio, placed by
        /// `gravity` (offsets as the URL gives them).
        case extend(toAspectRatio: Bool, gravity: ImageProcessors.Gravity)
        /// Space added around the result (`pd`), its sides before the ratio.
        case pad(ThumbnailOptions.Padding)
        /// The server's watermark drawn as `wm` asks.
        case watermark(ThumbnailOptions.Watermark)
    }

    /// What the operations after a resize are made for: the resize's target in pixels (`nil`:
    /// no resize), the device pixel ratio it honours, the colour the added space is filled with,
    /// and the server's watermark image.
    struct ResultFrame: Sendable {
        var target: Size?
        var pixelRatio: Double
        var background: RGBA8
        var watermarkImage: WatermarkImage?
    }
}

extension ThumbnailPlan.Operation {
    /// The processor of this operation in `frame`; `nil` for one that adds nothing there (an
    /// extension without a resize, a watermark without the server's image) and for the
    /// source-aware resize, which is not made in a frame.
    func processor(in frame: ThumbnailPlan.ResultFrame) -> (any ImageProcessing)? {
        switch self {
        case .process(let processor, _):
            return processor
        case .resizeBySource:
            return nil
        case .extend(let toAspectRatio, let gravity):
            guard let target = frame.target else { return nil }
            let placement = ThumbnailPlan.inPixels(gravity, of: target, pixelRatio: frame.pixelRatio)
            if !toAspectRatio {
                return ImageProcessors.Extend(
                    width: target.width, height: target.height, gravity: placement, background: frame.background)
            }
            guard target.width > 0, target.height > 0 else { return nil }
            return ImageProcessors.Extend(
                aspectRatioWidth: Double(target.width), aspectRatioHeight: Double(target.height), gravity: placement,
                background: frame.background)
        case .pad(let padding):
            // The sides times the ratio, rounded half to even, as imgproxy rounds them.
            func side(_ value: Int) -> Double { (Double(value) * frame.pixelRatio).rounded(.toNearestOrEven) }
            return ImageProcessors.Padding(
                top: side(padding.top), right: side(padding.right), bottom: side(padding.bottom),
                left: side(padding.left), background: frame.background)
        case .watermark(let option):
            guard let image = frame.watermarkImage else { return nil }
            return ResultWatermark(image: image, option: option, pixelRatio: frame.pixelRatio)
        }
    }

    /// What this operation does, for the identifier of a ``SourceAwareResize`` that holds it
    /// (its frame is not known then): its processor's identifier, or what it asks for.
    func identifier(background: RGBA8, watermarkImage: WatermarkImage?) -> String {
        switch self {
        case .process(let processor, _):
            return processor.identifier
        case .resizeBySource(let resize):
            return resize.identifier
        case .extend(let toAspectRatio, let gravity):
            return "extend?aspectRatio=\(toAspectRatio)&gravity=\(gravity)&background=\(Self.spelling(background))"
        case .pad(let padding):
            return "padding?\(padding.top):\(padding.right):\(padding.bottom):\(padding.left)"
                + "&background=\(Self.spelling(background))"
        case .watermark(let option):
            guard let image = watermarkImage else { return "watermark?none" }
            return ResultWatermark(image: image, option: option, pixelRatio: 1).identifier
        }
    }

    /// Whether this is an extension to the resize's size (`ex`), which the resize's geometry
    /// takes into account.
    var extendsToTarget: Bool {
        if case .extend(toAspectRatio: false, _) = self { return true }
        return false
    }

    private static func spelling(_ color: RGBA8) -> String {
        "\(color.red),\(color.green),\(color.blue),\(color.alpha)"
    }
}
