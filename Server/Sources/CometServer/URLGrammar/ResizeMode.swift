/// How `rs:` fits the source into the requested box.
///
/// Thread-safe (a value).
public enum ResizeMode: String, Sendable, Hashable {
    /// The whole image fits inside width × height, keeping its aspect ratio.
    case fit
    /// The image covers width × height and its centre is cut out to exactly that size.
    case fill
    /// Each axis scaled to the box independently (the aspect ratio may change).
    case force
}
