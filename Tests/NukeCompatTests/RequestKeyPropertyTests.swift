import Foundation
import PropertyBased
import Testing
import NukeCompat
import CometTestSupport
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A Nuke 4 request as the property tests see it, each field from a small domain.
struct NukeRequestSpec: Sendable, CustomStringConvertible {
    var path: Int
    var user: String?
    var lowercasesHeaderName: Bool
    var reloads: Bool
    var cellular: Bool
    /// Columns added by a `Widen` processor; 0: no processor; 3: `DoubleWidth`.
    var processor: Int
    var customLoadKey: String?
    var customCacheKey: String?

    init(_ v: [Int]) {
        path = v[0] % 2
        user = [nil, nil, "alice", "bob"][v[1] % 4]
        lowercasesHeaderName = v[2] % 2 == 1
        reloads = v[3] % 3 == 2
        cellular = v[4] % 4 != 3
        processor = v[5] % 4
        customLoadKey = [nil, nil, nil, "k"][v[6] % 4]
        customCacheKey = [nil, nil, nil, "c"][v[7] % 4]
    }

    var url: URL { URL(string: "http://example.com/images/\(path).png")! }

    var request: Request {
        var urlRequest = URLRequest(
            url: url, cachePolicy: reloads ? .reloadIgnoringLocalCacheData : .useProtocolCachePolicy)
        urlRequest.allowsCellularAccess = cellular
        if let user {
            urlRequest.setValue(user, forHTTPHeaderField: lowercasesHeaderName ? "authorization" : "Authorization")
        }
        var request = Request(urlRequest: urlRequest)
        switch processor {
        case 0: break
        case 3: request.process(with: DoubleWidth())
        default: request.process(with: Widen(columns: processor))
        }
        if let customLoadKey { request.loadKey = customLoadKey }
        if let customCacheKey { request.cacheKey = customCacheKey }
        return request
    }

    /// The model: what the loaded image is, and what a load is.
    struct Image: Hashable { var path: Int, user: String?, processor: Int }
    enum Identity<T: Hashable>: Hashable { case custom(String), model(T) }
    struct Load: Hashable { var image: Image, reloads: Bool, cellular: Bool }

    var image: Image { Image(path: path, user: user, processor: processor) }
    var loadIdentity: Identity<Load> {
        customLoadKey.map { .custom($0) } ?? .model(Load(image: image, reloads: reloads, cellular: cellular))
    }
    var cacheIdentity: Identity<Image> { customCacheKey.map { .custom($0) } ?? .model(image) }

    var description: String {
        "#\(path) user \(user ?? "-")\(lowercasesHeaderName ? "(lc)" : "") reload \(reloads) cellular \(cellular) processor \(processor)"
            + " loadKey \(customLoadKey ?? "-") cacheKey \(customCacheKey ?? "-")"
    }

    static var pair: Generator<(NukeRequestSpec, NukeRequestSpec), some SendableSequenceType> {
        zip(Gen.int(in: 0...11).array(of: 8), Gen.int(in: 0...11).array(of: 8), Gen.bool(0.2).array(of: 8)).map {
            v, w, changes in
            (NukeRequestSpec(v), NukeRequestSpec(zip(zip(v, w), changes).map { $1 ? $0.1 : $0.0 }))
        }
    }
}

@Suite("Nuke key properties", .timeLimit(.minutes(10)))
struct RequestKeyPropertyTests {
    @Test func loadKeysAreEqualExactlyWhenTheLoadsAre() async {
        await propertyCheck(count: 2000, input: NukeRequestSpec.pair) { a, b in
            #expect(
                (Request.loadKey(for: a.request) == Request.loadKey(for: b.request))
                    == (a.loadIdentity == b.loadIdentity), "\(a) | \(b)")
        }
    }

    @Test func cacheKeysAreEqualExactlyWhenTheImagesAre() async {
        await propertyCheck(count: 2000, input: NukeRequestSpec.pair) { a, b in
            #expect(
                (Request.cacheKey(for: a.request) == Request.cacheKey(for: b.request))
                    == (a.cacheIdentity == b.cacheIdentity), "\(a) | \(b)")
        }
    }

    /// Through `Deduplicator` over a `Loader` and a shared `Cache`: both callers of a concurrent
    /// pair get the image they would get alone, equal loads share one data load, and the cache
    /// answers each request with its own image.
    @Test func concurrentLoadsEachGetTheirOwnImage() async {
        await propertyCheck(count: 100, input: NukeRequestSpec.pair) { a, b in
            let data = makeModelDataLoader()
            let cache = Cache(costLimit: 1 << 24)
            let deduplicator = Deduplicator(loader: Loader(loader: data, decoder: DataDecoder(), cache: cache))
            let first = deduplicator.loadImage(with: a.request)
            let second = deduplicator.loadImage(with: b.request)
            let sharesLoad = Request.loadKey(for: a.request) == Request.loadKey(for: b.request)
            #expect((first === second) == sharesLoad, "\(a) | \(b)")
            #expect(await eventually { data.startedCount == (sharesLoad ? 1 : 2) }, "\(a) | \(b)")
            data.open()
            let imageA = await resolution(of: first)?.value
            let imageB = await resolution(of: second)?.value
            // Equal custom load keys declare equal loads: a truthful caller gives them equal images.
            guard a.customLoadKey == nil || !sharesLoad else { return }
            let expectedA = await Self.reference(a), expectedB = await Self.reference(b)
            #expect(imageA == expectedA && imageA != nil, "\(a) | \(b)")
            #expect(imageB == expectedB && imageB != nil, "\(a) | \(b)")
            if a.customCacheKey == nil, b.customCacheKey == nil {
                #expect(cache[a.request] == expectedA && cache[b.request] == expectedB, "cache: \(a) | \(b)")
            }
        }
    }

    static func reference(_ spec: NukeRequestSpec) async -> Image? {
        let loader = makeModelDataLoader()
        loader.open()
        return await resolution(
            of: Loader(loader: loader, decoder: DataDecoder(), cache: nil).loadImage(with: spec.request))?.value
    }
}

/// A gated Nuke `DataLoading` whose bytes depend on the URL's path and the `Authorization`
/// header: a distinct image for each pair.
func makeModelDataLoader() -> GatedDataLoader {
    GatedDataLoader { request in
        let path = Int(request.url!.deletingPathExtension().lastPathComponent) ?? 0
        let userIndex = ["alice": 1, "bob": 2][request.value(forHTTPHeaderField: "Authorization") ?? ""] ?? 0
        return TestImages.png(width: 16 + 3 * path + userIndex, height: 12)
    }
}
