extension ImageProcessors.Resize {
    /// How a resize computes each output pixel from the source pixels around it.
    ///
    /// Both filters work on premultiplied colour in the stored (sRGB-encoded) values, and both
    /// enlarge with Lanczos3 (an area average has nothing to average when a source pixel covers
    /// several output pixels).
    public enum Filter: String, Sendable, Hashable, CaseIterable {
        /// The default: a Lanczos3 kernel (a windowed sinc three lobes wide, stretched by the
        /// reduction factor when shrinking), as libvips' `vips_reduce` and Pillow's `LANCZOS`.
        /// As sharp as a full-size decode resized with Lanczos3 in floating point, within
        /// rounding, when the decode is at full size; a resize that a pipeline decodes at a
        /// reduced size asks the decoder to stop at 1.5 times the output's size or more (see
        /// ``decodingHeadroom``), so that the kernel still has the detail to work with. The
        /// quality figures are in BENCHMARKS.md.
        ///
        /// The kernel is separable and fixed point (14-bit weights), with AVX2 paths (twice the
        /// SSE2 paths' width) where the CPU has them, SSE2 ones elsewhere on x86-64, and portable C
        /// otherwise, the same bytes on each.
        case lanczos3
        /// The fast option: each output pixel is the exact average of the source area it covers (a
        /// box filter over fractional coverage), and a pipeline decodes at the smallest reduced
        /// size that still covers the output. Cheaper, and visibly softer: against a full-size
        /// decode resized with Lanczos3, the corpus's photos measure a median 35–42 dB PSNR and
        /// 4–26% less edge energy (BENCHMARKS.md), where ``lanczos3`` measures 45–57 dB and
        /// keeps the edge energy within 3%.
        case areaAverage

        /// How many times larger than the output a decoder's reduced-size result must stay:
        /// 1.5 for ``lanczos3``, 1 for ``areaAverage``.
        ///
        /// Lanczos3's figure is chosen by measured cost and quality together (BENCHMARKS.md,
        /// "Thumbnails against libvips"). libjpeg-turbo's cheap reduced decodes are 1/2, 1/4 and
        /// 1/8 (its other M/8 scales cost as much as a full-size decode or more); each comes out
        /// as the full-size decode averaged over 2², 4² or 8² pixels, and after one the resize
        /// frames on the file's exact sides and sharpens a little to undo that average's
        /// softness. With 1.5, a 256² fill of a 1024×768 photo (3×) decodes at 1/2 and measures
        /// 50 dB against a full-size decode resized with Lanczos3, for about two thirds of the
        /// CPU of the full-size decode and its 19-tap resize; libvips' rule (leave the kernel two
        /// or more) decodes it at full size. The price is at reductions just past each decode's
        /// threshold (3.01×, 6.1×, 12.5×), where the kernel is left 1.5: 45–47 dB median on the
        /// corpus's photos, edge energy within 3%, where a full-size decode gives 57 dB and
        /// libvips 53, 49 and 40 dB.
        public var decodingHeadroom: Double {
            switch self {
            case .lanczos3: 1.5
            case .areaAverage: 1
            }
        }
    }
}
