import CometServer
import Foundation
import Testing

/// The canonical spelling of any accepted URL is the same request: built from the request's
/// canonical options, its canonical source and its extension, signed again, it parses to equal
/// options, the same canonical text, the same source, format choice and result key. Drawn from
/// fixed seeds (``RandomServiceURLs``), so every run checks the same few thousand URLs.
@Suite("Canonical spellings, a property")
struct CanonicalSpellingPropertyTests {
    static let seeds: [UInt64] = [1, 29, 53]
    static let casesPerSeed = 1000

    static let configuration: ServerConfiguration = {
        var configuration = ServerConfiguration()
        configuration.signer = RunningServer.signer
        // So that imgproxy's security options are drawn and spelled too.
        configuration.allowsSecurityOptions = true
        return configuration
    }()

    /// A drawn URL the server accepted, with its request.
    struct Accepted: Sendable {
        var path: String
        var accept: String?
        var request: ThumbnailRequest
    }

    /// The drawn URLs of `seed` the server accepts (signed with the tests' key).
    static func accepted(seed: UInt64) -> [Accepted] {
        var urls = RandomServiceURLs(seed: seed)
        var accepted: [Accepted] = []
        for _ in 0..<casesPerSeed {
            let (signedPart, accept) = urls.next()
            let path = "/" + RunningServer.signer.signature(for: signedPart) + signedPart
            if let request = try? ThumbnailRequest(path: path, accept: accept, configuration: configuration) {
                accepted.append(Accepted(path: path, accept: accept, request: request))
            }
        }
        return accepted
    }

    /// Each seed's accepted URLs, drawn once for all the tests.
    static let acceptedBySeed: [UInt64: [Accepted]] = Dictionary(
        uniqueKeysWithValues: seeds.map { ($0, accepted(seed: $0)) })

    /// The canonical spelling of `request`'s URL: canonical options, the canonical source as
    /// base64url or `plain/`, the extension by its format's name, signed.
    static func canonicalPath(of request: ThumbnailRequest, plain: Bool) -> String {
        ThumbnailPath.make(
            options: request.options.canonical, source: request.path.source,
            fileExtension: request.path.fileExtension.flatMap(OutputFormat.init(name:))?.rawValue, plain: plain,
            signer: RunningServer.signer)
    }

    /// What must be equal between a request and its canonical spelling's, as text for messages.
    static func identity(_ request: ThumbnailRequest) -> [String] {
        [
            request.options.canonical, request.path.canonicalSource, request.storeKey, "\(request.choice)",
            "\(request.variesOnAccept)",
        ]
    }

    /// Runs `work` on a thread of its own: a few thousand parses would hold one of Swift
    /// concurrency's few threads for a second or two, which the servers of the tests running
    /// beside these need.
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await onOwnThread(work)
    }

    @Test(arguments: seeds)
    func theDrawnURLsAreBothAcceptedAndRefused(seed: UInt64) async throws {
        let accepted = try #require(await Self.offThePool { Self.acceptedBySeed[seed] })
        // A generator that only made refused URLs, or URLs without options, would make the
        // property hold trivially.
        #expect(accepted.count >= Self.casesPerSeed / 10, "\(accepted.count) of \(Self.casesPerSeed) accepted")
        #expect(accepted.count <= Self.casesPerSeed * 9 / 10, "\(accepted.count) of \(Self.casesPerSeed) accepted")
        #expect(Set(accepted.map { $0.request.path.sourceForm }).count == 2, "both source forms are accepted")
        #expect(accepted.filter { !$0.request.options.canonical.isEmpty }.count >= accepted.count / 4)
    }

    /// Every option that has a spelling of its own is in some accepted URL: `s`, `w`, `h` and `rt`
    /// are spelled inside `rs`, `raw` as `skp`, `sm:1` and `kcr:0` are the defaults (spelled as
    /// nothing), and `wm` needs a watermark image, which this server has not.
    @Test func theAcceptedURLsSpellEveryOption() async {
        let spelled = await Self.offThePool {
            Set(
                Self.acceptedBySeed.values.joined().flatMap { drawn in
                    drawn.request.options.canonical.split(separator: "/").map { String($0.prefix { $0 != ":" }) }
                })
        }
        let expected = Set(ThumbnailOptions.table.map(\.name)).subtracting([
            "s", "w", "h", "rt", "raw", "sm", "kcr", "wm",
        ])
        #expect(expected.subtracting(spelled).isEmpty, "never spelled: \(expected.subtracting(spelled).sorted())")
    }

    @Test(arguments: seeds, [false, true])
    func theCanonicalSpellingOfAnAcceptedURLParsesToTheSameRequest(seed: UInt64, plain: Bool) async {
        let failures = await Self.offThePool {
            (Self.acceptedBySeed[seed] ?? []).compactMap { drawn -> String? in
                let spelling = Self.canonicalPath(of: drawn.request, plain: plain)
                guard
                    let again = try? ThumbnailRequest(
                        path: spelling, accept: drawn.accept, configuration: Self.configuration)
                else { return "\(drawn.path) is accepted but its canonical spelling \(spelling) is not" }
                guard again.options == drawn.request.options, Self.identity(again) == Self.identity(drawn.request)
                else {
                    return "\(drawn.path) → \(spelling): \(Self.identity(drawn.request)) → \(Self.identity(again))"
                }
                return nil
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures: \(failures.prefix(5))")
    }

    @Test(arguments: seeds)
    func theCanonicalSpellingIsItsOwnCanonicalSpelling(seed: UInt64) async {
        let failures = await Self.offThePool {
            (Self.acceptedBySeed[seed] ?? []).compactMap { drawn -> String? in
                let spelling = Self.canonicalPath(of: drawn.request, plain: false)
                guard
                    let again = try? ThumbnailRequest(
                        path: spelling, accept: drawn.accept, configuration: Self.configuration)
                else { return "\(spelling) is refused" }
                let respelled = Self.canonicalPath(of: again, plain: false)
                return respelled == spelling ? nil : "\(drawn.path): \(spelling) → \(respelled)"
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures: \(failures.prefix(5))")
    }
}
