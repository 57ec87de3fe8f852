import AlamofireImageCompat
import CometTestSupport
import FlyingFox
import Foundation
import PropertyBased
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download as the property tests see it: the URL, the credentials and the filter.
struct AFIRequestSpec: Sendable, CustomStringConvertible {
    enum Filter: Int, CaseIterable, Sendable {
        case none, circle, blur1, blur3, scaled8, scaled10

        var filter: ImageFilter? {
            switch self {
            case .none: nil
            case .circle: CircleFilter()
            case .blur1: BlurFilter(blurRadius: 1)
            case .blur3: BlurFilter(blurRadius: 3)
            case .scaled8: ScaledToSizeFilter(size: CGSize(width: 8, height: 8))
            case .scaled10: ScaledToSizeFilter(size: CGSize(width: 10, height: 10))
            }
        }
    }

    var path: Int
    var user: String?
    var lowercasesHeaderName: Bool
    var filter: Filter

    init(_ v: [Int]) {
        path = v[0] % 2
        user = [nil, nil, "alice", "bob"][v[1] % 4]
        lowercasesHeaderName = v[2] % 2 == 1
        filter = Filter.allCases[v[3] % Filter.allCases.count]
    }

    func urlRequest(base: URL) -> URLRequest {
        var request = URLRequest(url: base.appendingPathComponent("\(path)"))
        if let user {
            request.setValue(user, forHTTPHeaderField: lowercasesHeaderName ? "authorization" : "Authorization")
        }
        return request
    }

    /// The model: what the (filtered) image is.
    struct Identity: Hashable { var path: Int, user: String?, filter: Filter }
    var identity: Identity { Identity(path: path, user: user, filter: filter) }
    /// What the downloaded bytes are.
    var bytes: Identity { Identity(path: path, user: user, filter: .none) }

    var description: String { "#\(path) user \(user ?? "-")\(lowercasesHeaderName ? "(lc)" : "") \(filter)" }

    static var pair: Generator<(AFIRequestSpec, AFIRequestSpec), some SendableSequenceType> {
        zip(Gen.int(in: 0...11).array(of: 4), Gen.int(in: 0...11).array(of: 4), Gen.bool(0.25).array(of: 4)).map {
            v, w, changes in
            (AFIRequestSpec(v), AFIRequestSpec(zip(zip(v, w), changes).map { $1 ? $0.1 : $0.0 }))
        }
    }
}

@Suite("AlamofireImage key properties", .timeLimit(.minutes(10)))
struct ImageKeyPropertyTests {
    static let base = URL(string: "http://example.com/images")!

    @Test func theCacheAnswersARequestExactlyWhenItAsksForTheSameImage() async {
        await propertyCheck(count: 2000, input: AFIRequestSpec.pair) { a, b in
            let cache = AutoPurgingImageCache()
            cache.addImage(
                TestImages.image(width: 4, height: 4), forRequest: a.urlRequest(base: Self.base),
                withAdditionalIdentifier: a.filter.filter?.identifier)
            let found =
                cache.imageForRequest(
                    b.urlRequest(base: Self.base), withAdditionalIdentifier: b.filter.filter?.identifier) != nil
            #expect(found == (a.identity == b.identity), "\(a) | \(b)")
        }
    }

    /// Both callers of a concurrent pair, through the real server, get the image they get alone;
    /// callers whose bytes are equal share one download.
    @Test func concurrentDownloadsEachGetTheirOwnImage() async throws {
        let server = try await AFIServer.start()
        let gate = Valve()
        // A distinct image for each path and user, answered while the valve is open.
        for path in 0...1 {
            server.server.handle("/model/\(path)") { request in
                _ = await eventually { gate.isOpen }
                let userIndex = ["alice": 1, "bob": 2][request.headers[.authorization] ?? ""] ?? 0
                return HTTPResponse(
                    statusCode: .ok, headers: [HTTPHeader("Content-Type"): "image/png"],
                    body: TestImages.png(width: 16 + 3 * path + userIndex, height: 12))
            }
        }
        let base = server.server.url("/model")
        var references: [AFIRequestSpec.Identity: Image] = [:]
        gate.isOpen = true
        for path in 0...1 {
            for user in [nil, "alice", "bob"] {
                for filter in AFIRequestSpec.Filter.allCases {
                    var spec = AFIRequestSpec([path, 0, 0, filter.rawValue])
                    spec.user = user
                    references[spec.identity] = try await Self.download(spec, base: base)
                }
            }
        }
        await propertyCheck(count: 60, input: AFIRequestSpec.pair) { a, b in
            let recorder = Recorder<Completion>()
            let downloader = ImageDownloader(imageCache: nil)
            gate.isOpen = false
            let first = downloader.downloadImage(
                URLRequest: a.urlRequest(base: base), filter: a.filter.filter, completion: recorder.handler("a"))
            let second = downloader.downloadImage(
                URLRequest: b.urlRequest(base: base), filter: b.filter.filter, completion: recorder.handler("b"))
            gate.isOpen = true
            #expect((first?.request === second?.request) == (a.bytes == b.bytes), "\(a) | \(b)")
            #expect(await eventually { recorder.count == 2 }, "\(a) | \(b)")
            let byTag = Dictionary(uniqueKeysWithValues: recorder.values.map { ($0.tag, $0) })
            #expect(byTag["a"]?.image == references[a.identity], "\(a) | \(b)")
            #expect(byTag["b"]?.image == references[b.identity], "\(a) | \(b)")
        }
    }

    /// The image `spec` gets alone, from a downloader of its own.
    static func download(_ spec: AFIRequestSpec, base: URL) async throws -> Image {
        let recorder = Recorder<Completion>()
        ImageDownloader(imageCache: nil).downloadImage(
            URLRequest: spec.urlRequest(base: base), filter: spec.filter.filter,
            completion: recorder.handler())
        _ = await eventually { recorder.count == 1 }
        return try #require(recorder.values.first?.image)
    }
}

/// A switch the server's handlers wait on: open, they answer; closed, they wait (at most 10 s).
final class Valve: @unchecked Sendable {
    // `open` is only touched under `lock`.
    private let lock = NSLock()
    private var open = false
    var isOpen: Bool {
        get { lock.withLock { open } }
        set { lock.withLock { open = newValue } }
    }
}
