/// How an image that a decoder reduced while decoding (JPEG's DCT scaling) relates to the file,
/// which a resize that follows uses to finish the reduction as a full-size resize would have.
///
/// Only the JPEG decoder sets it (``Image/decodeReduction``); every processor makes a new image
/// without it, so it never outlives the pixels it describes.
struct DecodeReduction: Sendable, Hashable {
    /// The reduction: the decode is 1/`factor` of the file's size (2, 4 or 8).
    var factor: Int
    /// The file's size in this image's pixels (the file's over `factor`; may be fractional): the
    /// decoder keeps whole blocks only, so the image lacks the fraction of a pixel a partial last
    /// block stood for. A resize framing a fill on these sides centres it as a full-size decode
    /// would. Equal to the image's own size when the file's was a multiple of `factor`.
    var width: Double
    /// See ``width``.
    var height: Double

    /// How much a resize's kernel sharpens to undo the reduced decode's own softness.
    ///
    /// libjpeg-turbo's reduced inverse DCTs (1/2, 1/4, 1/8) come out as the full-size decode
    /// averaged over `factor`² blocks (measured on the corpus's photos and the benchmark's: 48–56
    /// dB from that average), and a box of `factor` pixels attenuates a frequency ω (in radians
    /// per reduced pixel) by about 1 − (1 − 1/factor²)·ω²/24, which the three taps
    /// (−a, 1 + 2a, −a), gaining about 1 + a·ω², cancel at `a = (1 − 1/factor²)/24`. The box also
    /// aliases, and sharpening amplifies that too: at that full amount a photo with per-pixel
    /// grain gained 7% of edge energy over the full-size reference while the corpus's photos
    /// reached it (BENCHMARKS.md). Six tenths of it, `(1 − 1/factor²)/40` (1/53 at 1/2, about
    /// 1/41 at 1/8), keeps both within 3%.
    var sharpening: Double {
        let f = Double(factor)
        return factor > 1 ? (1 - 1 / (f * f)) / 40 : 0
    }
}
