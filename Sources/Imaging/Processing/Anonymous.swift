extension ImageProcessors {
    /// A processor made of a closure and an identifier you choose.
    ///
    /// The identifier is used as given (for both cache keys), so it must change whenever the
    /// closure's behaviour does, and should not start with `com.comet.` (the built-in processors'
    /// prefix), or it could share cache entries with a built-in processor.
    public struct Anonymous: ImageProcessing {
        /// The identifier passed to ``init(id:_:)``.
        public let identifier: String
        private let closure: @Sendable (Image) throws -> Image

        /// A processor named `id` that runs `closure`.
        public init(id: String, _ closure: @escaping @Sendable (Image) throws -> Image) {
            self.identifier = id
            self.closure = closure
        }

        /// The closure's result.
        public func process(_ image: Image) throws -> Image { try closure(image) }
    }
}

extension ImageProcessing where Self == ImageProcessors.Anonymous {
    /// A processor named `id` that runs `closure` (see ``ImageProcessors/Anonymous``).
    public static func process(id: String, _ closure: @escaping @Sendable (Image) throws -> Image) -> Self {
        .init(id: id, closure)
    }
}
