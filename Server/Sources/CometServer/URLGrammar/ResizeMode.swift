/// How `rs:` fits the source into the requested box: imgproxy's resizing types, with its
/// results (`ResizeGeometry` has the arithmetic).
///
/// Thread-safe (a value).
public enum ResizeMode: String, Sendable, Hashable {
    /// The whole image fits inside width × height, keeping its aspect ratio.
    case fit
    /// The image covers width × height and the part its gravity picks is cut out to exactly
    /// that size. Without enlarging, a source too small to cover the box is kept at its own
    /// scale and only cut where it is longer than the box (a 200×100 source filled to 300×300
    /// stays 200×100), as imgproxy's `fill`.
    case fill
    /// As ``fill``, but without enlarging a source too small to cover the box gives the
    /// largest cut of the box's aspect ratio it holds, at its own scale (a 200×100 source
    /// filled down to 300×300 becomes 100×100), as imgproxy's `fill-down`. Enlarging, it is
    /// ``fill``.
    case fillDown = "fill-down"
    /// Each axis scaled to the box independently (the aspect ratio may change). Without
    /// enlarging, the box's shape at most the source's size.
    case force
    /// ``fill`` when the source and the box are both landscape (a square counts as landscape)
    /// or both portrait, else ``fit``.
    case auto
}
