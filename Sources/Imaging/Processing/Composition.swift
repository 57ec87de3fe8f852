extension ImageProcessors {
    /// Several processors applied in order, as one.
    ///
    /// Nested compositions are flattened, so `Composition([a, Composition([b, c])])` is the
    /// same processor as `Composition([a, b, c])`. The identifier joins the parts' identifiers
    /// with `|`; an empty composition returns images unchanged.
    public struct Composition: ImageProcessing {
        /// The processors, in the order they run.
        public let processors: [any ImageProcessing]

        /// Applies `processors` in order.
        public init(_ processors: [any ImageProcessing]) {
            self.processors = processors.flatMap { ($0 as? Composition)?.processors ?? [$0] }
        }

        /// The parts' identifiers joined with `|`.
        public var identifier: String { processors.map(\.identifier).joined(separator: "|") }

        /// The parts' hashable identifiers, in order (a single part's own, so that
        /// `Composition([p])` and `p` key the same cache entries, as their identifiers do).
        public var hashableIdentifier: AnyHashable {
            processors.count == 1 ? processors[0].hashableIdentifier : AnyHashable(processors.map(\.hashableIdentifier))
        }

        /// The image after every processor, in order.
        public func process(_ image: Image) throws -> Image {
            try processors.reduce(image) { try $1.process($0) }
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Composition {
    /// Applies `processors` in order (see ``ImageProcessors/Composition``).
    public static func composition(_ processors: [any ImageProcessing]) -> Self { .init(processors) }
}
