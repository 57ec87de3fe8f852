import Foundation

/// Transforms an image and names the transformation: AlamofireImage's filter protocol.
///
/// The ``identifier`` is part of cache keys (`URLString-identifier`), so equal filters must have
/// equal identifiers. The default identifier is the type's name; ``Sizable`` filters add
/// `-size:(WxH)` and ``Roundable`` ones `-radius:(R)` (rounded to whole numbers), byte for byte as
/// AlamofireImage 2 wrote them.
///
/// Filters run off the main queue, possibly concurrently, so they are `Sendable`.
public protocol ImageFilter: Sendable {
    /// The transformation.
    var filter: (Image) -> Image { get }
    /// The name of the transformation, unique for its parameters.
    var identifier: String { get }
}

extension ImageFilter {
    /// The type's name, e.g. `CircleFilter`.
    public var identifier: String { "\(type(of: self))" }
}

/// A filter with a target size (its identifier gets `-size:(WxH)`).
public protocol Sizable {
    /// The target size, in pixels.
    var size: CGSize { get }
}

extension ImageFilter where Self: Sizable {
    /// E.g. `ScaledToSizeFilter-size:(100x50)`: width and height rounded to whole numbers.
    public var identifier: String {
        "\(type(of: self))-size:(\(Int64(size.width.rounded()))x\(Int64(size.height.rounded())))"
    }
}

/// A filter with a corner radius (its identifier gets `-radius:(R)`).
public protocol Roundable {
    /// The radius, in pixels.
    var radius: CGFloat { get }
}

extension ImageFilter where Self: Roundable {
    /// E.g. `MyRoundFilter-radius:(12)`: the radius rounded to a whole number.
    public var identifier: String { "\(type(of: self))-radius:(\(Int64(radius.rounded())))" }
}

/// A filter made from a closure and an identifier you choose.
public struct DynamicImageFilter: ImageFilter {
    /// The identifier given at creation.
    public let identifier: String
    private let transform: @Sendable (Image) -> Image

    /// The closure applied to images.
    public var filter: (Image) -> Image { transform }

    /// A filter named `identifier` that applies `filter` (called off the main queue).
    public init(_ identifier: String, filter: @escaping @Sendable (Image) -> Image) {
        self.identifier = identifier
        self.transform = filter
    }
}

/// A filter made of other filters, applied in order.
public protocol CompositeImageFilter: ImageFilter {
    /// The filters, in the order they are applied.
    var filters: [ImageFilter] { get }
}

extension CompositeImageFilter {
    /// The filters' identifiers joined with `_`.
    public var identifier: String { filters.map(\.identifier).joined(separator: "_") }

    /// Applies each filter to the previous one's output.
    public var filter: (Image) -> Image {
        let filters = filters
        return { image in filters.reduce(image) { result, filter in filter.filter(result) } }
    }
}

/// A composite of the filters given at creation.
public struct DynamicCompositeImageFilter: CompositeImageFilter {
    /// The filters, in order.
    public let filters: [ImageFilter]

    /// A composite of `filters`, applied in order.
    public init(_ filters: [ImageFilter]) {
        self.filters = filters
    }

    /// A composite of `filters`, applied in order.
    public init(_ filters: ImageFilter...) {
        self.filters = filters
    }
}
