import Foundation
import PropertyBased
@testable import Comet
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A Comet request as the property tests see it: every field that may change a result, each
/// from a small domain so that random pairs are often equal.
struct RequestSpec: Sendable, CustomStringConvertible {
    enum Processor: Sendable, Hashable, CustomStringConvertible {
        case resize(width: Int)
        case blur(radius: Double)
        case circle

        var processor: any ImageProcessing {
            switch self {
            case .resize(let width): ImageProcessors.Resize(width: width)
            case .blur(let radius): ImageProcessors.GaussianBlur(radius: radius)
            case .circle: ImageProcessors.Circle()
            }
        }

        var description: String {
            switch self {
            case .resize(let width): "resize(\(width))"
            case .blur(let radius): "blur(\(radius))"
            case .circle: "circle"
            }
        }
    }

    /// Where the bytes may come from.
    enum Source: Sendable, Hashable, CaseIterable {
        case plain, reload, noDiskReads, cacheOnly, reloadingURLCachePolicy
    }

    var path: Int
    /// The `Authorization` header, if any.
    var user: String?
    /// Spells the header name in lower case (the same header to HTTP).
    var lowercasesHeaderName: Bool
    /// Made from a `URLRequest` (else from the URL).
    var usesURLRequest: Bool
    var imageID: String?
    var processors: [Processor]
    var thumbnail: Int?
    var decodesAnimation: Bool
    /// Keeps the file's colour numbers (``ImageRequest/Options/keepOriginalColors``).
    var keepsOriginalColors: Bool
    var source: Source

    var url: URL { URL(string: "https://example.com/images/\(path).png")! }

    var request: ImageRequest {
        var options: ImageRequest.Options = decodesAnimation ? [.decodeAnimation] : []
        if keepsOriginalColors { options.insert(.keepOriginalColors) }
        switch source {
        case .plain, .reloadingURLCachePolicy: break
        case .reload: options.insert(.reloadIgnoringCachedData)
        case .noDiskReads: options.insert(.disableDiskCacheReads)
        case .cacheOnly: options.insert(.returnCacheDataDontLoad)
        }
        let thumbnailOptions = thumbnail.map { ImageRequest.ThumbnailOptions(maxPixelSize: $0) }
        var request: ImageRequest
        if usesURLRequest || user != nil || source == .reloadingURLCachePolicy {
            var urlRequest = URLRequest(url: url)
            if source == .reloadingURLCachePolicy { urlRequest.cachePolicy = .reloadIgnoringLocalCacheData }
            if let user {
                urlRequest.setValue(user, forHTTPHeaderField: lowercasesHeaderName ? "authorization" : "Authorization")
            }
            request = ImageRequest(
                urlRequest: urlRequest, processors: processors.map(\.processor), options: options,
                thumbnail: thumbnailOptions)
        } else {
            request = ImageRequest(
                url: url, processors: processors.map(\.processor), options: options, thumbnail: thumbnailOptions)
        }
        if let imageID { request.imageID = imageID }
        return request
    }

    // MARK: The model: what a result depends on

    /// What the bytes are: the declared id, else the URL and the credentials.
    enum Bytes: Hashable {
        case declared(String)
        case fetched(path: Int, user: String?)
    }

    var bytes: Bytes { imageID.map(Bytes.declared) ?? .fetched(path: path, user: user) }

    /// What the final image is: its bytes and everything done to them.
    struct Result: Hashable {
        var bytes: Bytes
        var thumbnail: Int?
        var processors: [Processor]
        var animation: Bool
        var originalColors: Bool
    }

    var result: Result {
        Result(
            bytes: bytes, thumbnail: thumbnail, processors: processors,
            animation: decodesAnimation && thumbnail == nil && processors.isEmpty,
            originalColors: keepsOriginalColors)
    }

    /// Where the bytes may come from, as the model sees it: a URL cache policy counts only for a
    /// `URLRequest`.
    var sourcePolicy: Source { source }

    var description: String {
        var parts = ["#\(path)"]
        if let user { parts.append("user \(user)\(lowercasesHeaderName ? " (lower-case header)" : "")") }
        if usesURLRequest { parts.append("URLRequest") }
        if let imageID { parts.append("imageID \(imageID)") }
        if !processors.isEmpty { parts.append("\(processors)") }
        if let thumbnail { parts.append("thumbnail \(thumbnail)") }
        if decodesAnimation { parts.append("animation") }
        if keepsOriginalColors { parts.append("original colours") }
        if source != .plain { parts.append("\(source)") }
        return parts.joined(separator: ", ")
    }
}

extension RequestSpec {
    private static let processorChoices: [Processor] = [
        .resize(width: 8), .resize(width: 10), .blur(radius: 1), .blur(radius: 2), .circle,
    ]

    /// A request decoded from twelve small numbers (shrinking them to 0 gives the plainest
    /// request: path 0, no headers, no processors).
    init(_ v: [Int]) {
        path = v[0] % 2
        user = [nil, nil, "alice", "bob"][v[1] % 4]
        lowercasesHeaderName = v[2] % 2 == 1
        usesURLRequest = v[3] % 2 == 1
        imageID = [nil, nil, nil, "x", "y"][v[4] % 5]
        processors = Array(
            [v[6], v[7]].map { Self.processorChoices[$0 % Self.processorChoices.count] }.prefix(v[5] % 3))
        thumbnail = [nil, nil, 6, 9][v[8] % 4]
        decodesAnimation = v[9] % 3 == 2
        source = Source.allCases[v[10] % Source.allCases.count]
        keepsOriginalColors = v[11] % 3 == 1
    }

    /// Any request: every field varies (for key properties, where no bytes are loaded).
    static var anyRequest: Generator<RequestSpec, some SendableSequenceType> {
        Gen.int(in: 0...19).array(of: 12).map { RequestSpec($0) }
    }

    /// Two requests, the second made from the first by changing a few random fields (often none),
    /// so that equal and nearly equal pairs are common.
    static var anyPair: Generator<(RequestSpec, RequestSpec), some SendableSequenceType> {
        zip(Gen.int(in: 0...19).array(of: 12), Gen.int(in: 0...19).array(of: 12), Gen.bool(0.15).array(of: 12)).map {
            v, w, changes in
            (RequestSpec(v), RequestSpec(zip(zip(v, w), changes).map { $1 ? $0.1 : $0.0 }))
        }
    }

    /// Pairs of requests whose declared ids tell the truth about their bytes (an id is only given
    /// to a request without credentials, and names its path), fetched from the network: for
    /// loading properties.
    static var loadablePair: Generator<(RequestSpec, RequestSpec), some SendableSequenceType> {
        anyPair.map { ($0.loadable, $1.loadable) }
    }

    /// This request with a truthful id and no cache-only option.
    var loadable: RequestSpec {
        var spec = self
        if spec.source == .cacheOnly { spec.source = .plain }
        if spec.imageID != nil {
            spec.user = nil
            spec.imageID = "image-\(spec.path)"
        }
        return spec
    }
}
