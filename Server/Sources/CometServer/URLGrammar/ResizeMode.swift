/// How `rs:` fits the source into the requested box (imgproxy's resizing types).
///
/// Thread-safe (a value).
public enum ResizeMode: String, Sendable, Hashable {
    /// The whole image fits inside width × height, keeping its aspect ratio.
    case fit
    /// The image covers width × height and its centre is cut out to exactly that size.
    case fill
    /// As ``fill``, but never enlarging: a source too small to cover the box gives the largest
    /// cut of the box's aspect ratio it holds, at its own scale.
    case fillDown = "fill-down"
    /// Each axis scaled to the box independently (the aspect ratio may change).
    case force
    /// ``fill`` when the source and the box are both landscape (a square counts as landscape)
    /// or both portrait, else ``fit``.
    case auto
}
