import Foundation

extension ImageProcessors {
    /// Scales an image to a target size, keeping its aspect ratio (or not, with ``ContentMode/stretch``).
    ///
    /// Geometry (the same as Nuke's `ImageProcessors.Resize` and AlamofireImage's filters, so the
    /// migration shims reuse it):
    /// - ``ContentMode/aspectFit``: scale = min(target/size) per axis, the whole image fits.
    /// - ``ContentMode/aspectFill``: scale = max(target/size), the image covers the target; with
    ///   `crop`, the part of the target's shape that `gravity` picks (the centre by default) is cut
    ///   out to exactly the target size (only the part that is kept is resampled). Gravity offsets
    ///   are in output pixels.
    /// - ``ContentMode/stretch``: each axis scaled to the target independently.
    /// - Output dimensions are `round(side × scale)` (at least 1).
    /// - With `upscale == false` (the default) the image is never enlarged: when the scale would
    ///   be above 1 the image is returned as is, except with `crop`, where the output keeps the
    ///   target's framing (the same centred region) at the source's resolution, e.g. a 200×100
    ///   image filled and cropped to 256×256 becomes its central 100×100; with
    ///   ``SmallSource/keepsSource`` the source is kept at its scale and only its sides longer
    ///   than the target's are cut (the same image stays 200×100).
    ///
    /// Pixels are computed with ``Filter/lanczos3`` by default, shrinking and enlarging alike;
    /// ``Filter/areaAverage`` is the faster, softer option for shrinking (see ``Filter``). Both
    /// work on premultiplied colour in the stored (sRGB-encoded) values.
    public struct Resize: ImageProcessing, Hashable {
        /// How the image is fitted to the target size.
        public enum ContentMode: String, Sendable, Hashable {
            /// Scale so the whole image fits inside the target (one side equals the target's).
            case aspectFit
            /// Scale so the image covers the target (one side equals the target's, the other is longer).
            case aspectFill
            /// Scale each axis to the target independently (the aspect ratio may change).
            case stretch
        }

        enum Target: Hashable {
            case size(Size)
            case width(Int)
            case height(Int)
        }

        let target: Target
        /// How the image is fitted to the target.
        public let contentMode: ContentMode
        /// Whether an aspect-filled image is cropped to exactly the target size (always `false`
        /// for the other modes, where it would mean nothing).
        public let crop: Bool
        /// Whether the image may be enlarged.
        public let upscale: Bool
        /// How output pixels are computed (default ``Filter/lanczos3``).
        public let filter: Filter
        /// Which part an aspect fill with `crop` keeps (default ``Gravity/center``; always
        /// ``Gravity/center`` when nothing is cropped, where it would mean nothing).
        public let gravity: Gravity
        /// What an aspect fill with `crop` and without `upscale` makes of a source too small to
        /// cover the target (default ``SmallSource/keepsTargetShape``; always that when nothing
        /// is cropped or the image may be enlarged, where it would mean nothing).
        public let smallSource: SmallSource

        /// What an aspect fill with `crop` that may not enlarge makes of a source too small to
        /// cover the target, at the source's own scale.
        public enum SmallSource: String, Sendable, Hashable {
            /// The largest part of the target's aspect ratio the source holds (imgproxy's
            /// `fill-down`): a 200×100 image filled to 256×256 becomes its central 100×100.
            case keepsTargetShape
            /// The source, each side cut to the target's only where it is longer (imgproxy's
            /// `fill`): a 200×100 image filled to 256×256 stays 200×100, filled to 100×300 it
            /// becomes its central 100×100.
            case keepsSource
        }

        /// Resizes to fit or fill `size` (in `unit`) with `filter`.
        /// `gravity` places the part an aspect fill with `crop` keeps; its offsets are in `unit`.
        /// `smallSource` says what a fill with `crop` that may not enlarge makes of a source too
        /// small for `size`.
        public init(
            size: Size, unit: Unit = .pixels, contentMode: ContentMode = .aspectFill,
            crop: Bool = false, upscale: Bool = false, filter: Filter = .lanczos3, gravity: Gravity = .center,
            smallSource: SmallSource = .keepsTargetShape
        ) {
            let pixels = unit == .pixels ? size : Size(CGSize(width: size.width, height: size.height), unit: unit)
            self.target = .size(Size(width: max(1, pixels.width), height: max(1, pixels.height)))
            self.contentMode = contentMode
            self.crop = crop && contentMode == .aspectFill
            self.upscale = upscale
            self.filter = filter
            self.gravity = self.crop ? gravity.inPixels(unit) : .center
            self.smallSource = self.crop && !upscale ? smallSource : .keepsTargetShape
        }

        /// Resizes to fit or fill a Foundation `CGSize` (pixels unless `unit` says points) with `filter`.
        public init(
            size: CGSize, unit: Unit = .pixels, contentMode: ContentMode = .aspectFill,
            crop: Bool = false, upscale: Bool = false, filter: Filter = .lanczos3, gravity: Gravity = .center
        ) {
            self.init(
                size: Size(size, unit: unit), contentMode: contentMode, crop: crop, upscale: upscale, filter: filter,
                gravity: gravity.inPixels(unit))
        }

        /// Scales to the given width, keeping the aspect ratio, with `filter`.
        public init(width: Int, unit: Unit = .pixels, upscale: Bool = false, filter: Filter = .lanczos3) {
            self.target = .width(unit.side(Double(width)))
            self.contentMode = .aspectFit
            self.crop = false
            self.upscale = upscale
            self.filter = filter
            self.gravity = .center
            self.smallSource = .keepsTargetShape
        }

        /// Scales to the given height, keeping the aspect ratio, with `filter`.
        public init(height: Int, unit: Unit = .pixels, upscale: Bool = false, filter: Filter = .lanczos3) {
            self.target = .height(unit.side(Double(height)))
            self.contentMode = .aspectFit
            self.crop = false
            self.upscale = upscale
            self.filter = filter
            self.gravity = .center
            self.smallSource = .keepsTargetShape
        }

        /// The smallest decode this resize can start from without changing its result's size or
        /// losing what its filter needs: a decoder that downsamples while decoding (JPEG's DCT
        /// scaling) may reduce the image as long as it still covers the target times the filter's
        /// ``Filter/decodingHeadroom`` (1.5 times the target for ``Filter/lanczos3``, the target
        /// itself for ``Filter/areaAverage``). Only for resizes whose output size is the target itself (aspect fill
        /// with crop, stretch): where the output's size follows the source's aspect ratio, the
        /// reduced decode's rounding could move it by a pixel, so those return `nil`. A pipeline
        /// uses it for a request whose first processor is this resize (see
        /// `ImagePipeline.Configuration.isResizeDownsamplingEnabled`).
        public var decodingDownsampling: ImageDecodingOptions.Downsampling? {
            guard case .size(let size) = target, crop || contentMode == .stretch else { return nil }
            func room(_ side: Int) -> Int { Int((Double(side) * filter.decodingHeadroom).rounded(.up)) }
            return .covering(width: room(size.width), height: room(size.height))
        }

        /// E.g.
        /// `com.comet.resize?width=256&height=256&contentMode=aspectFill&crop=false&upscale=false&filter=lanczos3`;
        /// a width-only resize omits `height` (and vice versa), and `&gravity=…` (e.g. `soea:10:0`,
        /// see ``Gravity/description``) follows only when it is not ``Gravity/center``, and
        /// `&smallSource=keepsSource` only when ``smallSource`` is not the default.
        public var identifier: String {
            let dimensions =
                switch target {
                case .size(let s): "width=\(s.width)&height=\(s.height)"
                case .width(let w): "width=\(w)"
                case .height(let h): "height=\(h)"
                }
            return "com.comet.resize?\(dimensions)&contentMode=\(contentMode.rawValue)&crop=\(crop)&upscale=\(upscale)"
                + "&filter=\(filter.rawValue)" + (gravity == .center ? "" : "&gravity=\(gravity)")
                + (smallSource == .keepsTargetShape ? "" : "&smallSource=\(smallSource.rawValue)")
        }

        /// What a resize of a `width` × `height` image does: `nil` when it leaves the image as it is.
        struct Plan: Equatable {
            var source: Resampler.SourceRect
            var width: Int
            var height: Int
        }

        /// `image` is the image itself, which only ``Gravity/smart`` looks at. `extent`: the sides
        /// to frame the source rectangle on when they are not the image's own (a reduced
        /// decode's, see ``DecodeReduction``); used only where the output's size is the target's
        /// whatever the sides (a fill with crop, a stretch).
        func plan(
            width w: Int, height h: Int, image: Image? = nil, extent: (width: Double, height: Double)? = nil
        ) -> Plan? {
            var (W, H) = (Double(w), Double(h))
            if let extent, crop || contentMode == .stretch { (W, H) = (extent.width, extent.height) }
            func side(_ length: Double, _ scale: Double) -> Int { max(1, Int((length * scale).rounded())) }
            let full = Resampler.SourceRect(x: 0, y: 0, width: W, height: H)
            var sx: Double, sy: Double
            switch target {
            case .width(let tw): sx = Double(tw) / W; sy = sx
            case .height(let th): sy = Double(th) / H; sx = sy
            case .size(let t):
                let (fx, fy) = (Double(t.width) / W, Double(t.height) / H)
                switch contentMode {
                case .aspectFit: sx = min(fx, fy); sy = sx
                case .aspectFill: sx = max(fx, fy); sy = sx
                case .stretch: sx = fx; sy = fy
                }
                if crop {
                    // The region of the target's shape gravity picks, at the fill scale (≤ 1 without
                    // upscale). Offsets are output pixels: `1 / scale` source pixels each.
                    let scale = upscale ? sx : min(sx, 1)
                    var region = (width: Double(t.width) / sx, height: Double(t.height) / sx)
                    if scale < sx && smallSource == .keepsSource {
                        region = (width: min(Double(t.width), W), height: min(Double(t.height), H))
                    }
                    let out = (
                        width: min(side(region.width, scale), t.width),
                        height: min(side(region.height, scale), t.height)
                    )
                    func origin(_ width: Double, _ height: Double) -> (x: Double, y: Double) {
                        if gravity == .smart, let image {
                            return SmartCrop.origin(width: width, height: height, in: image)
                        }
                        return gravity.origin(
                            width: width, height: height, containerWidth: W, containerHeight: H, offsetScale: 1 / scale)
                    }
                    let corner = origin(region.width, region.height)
                    var rect = Resampler.SourceRect(
                        x: corner.x, y: corner.y, width: region.width, height: region.height)
                    if Double(out.width) == rect.width.rounded() && Double(out.height) == rect.height.rounded() {
                        // No scaling: snap to whole pixels and just copy.
                        let snapped = gravity == .smart ? corner : origin(Double(out.width), Double(out.height))
                        rect = .init(
                            x: min(max(snapped.x.rounded(.down), 0), W - Double(out.width)),
                            y: min(max(snapped.y.rounded(.down), 0), H - Double(out.height)),
                            width: Double(out.width), height: Double(out.height))
                        if out.width == w && out.height == h { return nil }
                    }
                    return Plan(source: rect, width: out.width, height: out.height)
                }
            }
            if !upscale { sx = min(sx, 1); sy = min(sy, 1) }
            let (ow, oh) = (side(W, sx), side(H, sy))
            if ow == w && oh == h { return nil }
            return Plan(source: full, width: ow, height: oh)
        }

        /// The resized image (or `image` itself when no resize is needed).
        public func process(_ image: Image) throws -> Image {
            if let reason = gravity.invalidityReason {
                throw ImageProcessingError(processor: identifier, reason: reason)
            }
            // After a reduced decode, Lanczos3 frames on the file's exact sides and undoes part of
            // the decode's softness, so that the result comes as close as it can to the full-size
            // decode's resize; the area average is the cheap option and keeps whole-pixel framing.
            let reduction = filter == .lanczos3 ? image.decodeReduction : nil
            let extent = reduction.map { (width: $0.width, height: $0.height) }
            guard let plan = plan(width: image.width, height: image.height, image: image, extent: extent) else {
                return image
            }
            let r = plan.source
            if r.width == Double(plan.width) && r.height == Double(plan.height)
                && r.x.rounded() == r.x && r.y.rounded() == r.y
            {
                return image.cropped(x: Int(r.x), y: Int(r.y), width: plan.width, height: plan.height).compacted()
            }
            return Resampler.resample(
                image, rect: r, width: plan.width, height: plan.height, filter: filter,
                sharpening: reduction?.sharpening ?? 0)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Resize {
    /// Resizes to fit or fill `size` pixels (see ``ImageProcessors/Resize``), with Lanczos3
    /// unless `filter` says otherwise; a fill with `crop` keeps the part `gravity` picks.
    public static func resize(
        size: Size, unit: ImageProcessors.Unit = .pixels,
        contentMode: ImageProcessors.Resize.ContentMode = .aspectFill,
        crop: Bool = false, upscale: Bool = false, filter: ImageProcessors.Resize.Filter = .lanczos3,
        gravity: ImageProcessors.Gravity = .center
    ) -> Self {
        .init(
            size: size, unit: unit, contentMode: contentMode, crop: crop, upscale: upscale, filter: filter,
            gravity: gravity)
    }

    /// Resizes to fit or fill a `CGSize` (pixels unless `unit` says points), with Lanczos3 unless
    /// `filter` says otherwise; a fill with `crop` keeps the part `gravity` picks.
    public static func resize(
        size: CGSize, unit: ImageProcessors.Unit = .pixels,
        contentMode: ImageProcessors.Resize.ContentMode = .aspectFill,
        crop: Bool = false, upscale: Bool = false, filter: ImageProcessors.Resize.Filter = .lanczos3,
        gravity: ImageProcessors.Gravity = .center
    ) -> Self {
        .init(
            size: size, unit: unit, contentMode: contentMode, crop: crop, upscale: upscale, filter: filter,
            gravity: gravity)
    }

    /// Scales to `width` pixels wide, keeping the aspect ratio, with Lanczos3 unless `filter`
    /// says otherwise.
    public static func resize(
        width: Int, unit: ImageProcessors.Unit = .pixels, upscale: Bool = false,
        filter: ImageProcessors.Resize.Filter = .lanczos3
    ) -> Self {
        .init(width: width, unit: unit, upscale: upscale, filter: filter)
    }

    /// Scales to `height` pixels high, keeping the aspect ratio, with Lanczos3 unless `filter`
    /// says otherwise.
    public static func resize(
        height: Int, unit: ImageProcessors.Unit = .pixels, upscale: Bool = false,
        filter: ImageProcessors.Resize.Filter = .lanczos3
    ) -> Self {
        .init(height: height, unit: unit, upscale: upscale, filter: filter)
    }
}
