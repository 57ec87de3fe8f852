import AlamofireImageCompat
import CometTestSupport
import Foundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("ImageDownloader credentials", .timeLimit(.minutes(10)))
struct ImageDownloaderCredentialTests {
    @Test func attachesNoCredentialUnlessOneIsSet() async throws {
        let server = try await AFIServer.start()
        server.server.serve(TestImages.png(), at: "free.png")
        let downloader = ImageDownloader(imageCache: nil)
        let receipt = try #require(
            downloader.downloadImage(URLRequest: server.server.imageURL("free.png"), completion: nil))
        #expect(downloader.credential == nil)
        #expect(receipt.request.credential == nil)
    }

    @Test func attachesTheDownloaderCredentialToNewDownloads() async throws {
        let server = try await AFIServer.start()
        server.server.serve(TestImages.png(), at: "secret.png")
        let downloader = ImageDownloader(imageCache: nil)
        downloader.addAuthentication(user: "alice", password: "wonderland")
        let recorder = Recorder<Completion>()
        let receipt = try #require(
            downloader.downloadImage(
                URLRequest: server.server.url("/basic/alice/wonderland/secret.png"),
                completion: recorder.handler()))
        #expect(receipt.request.credential?.user == "alice")
        #expect(downloader.credential?.user == "alice")
        #expect(await eventually { recorder.count == 1 })
        #expect(recorder.values.first?.image != nil)
    }

    @Test func failsPromptlyWith401WithoutACredential() async throws {
        let server = try await AFIServer.start()
        server.server.serve(TestImages.png(), at: "locked.png")
        let recorder = Recorder<Completion>()
        ImageDownloader(imageCache: nil).downloadImage(
            URLRequest: server.server.url("/basic/alice/wonderland/locked.png"),
            completion: recorder.handler())
        // "Promptly": well before the session's 60 s request timeout, which a challenge left
        // unanswered would wait for (the bound is loose so sanitized runs cannot flake).
        #expect(await eventually { recorder.count == 1 })
        let error = try #require(recorder.values.first?.error)
        #expect(error.code == -6003 && error.userInfo["StatusCode"] as? Int == 401)
    }

    @Test func delegateSuppliesADifferentCredentialPerRequest() async throws {
        let server = try await AFIServer.start()
        server.server.serve(TestImages.png(width: 10, height: 10), at: "a.png")
        server.server.serve(TestImages.png(width: 20, height: 20), at: "b.png")
        let alicePath = server.server.url("/basic/alice/one/a.png")
        let bobPath = server.server.url("/basic/bob/two/b.png")
        let delegate = CredentialsByPath([
            "/basic/alice/one/a.png": ("alice", "one"), "/basic/bob/two/b.png": ("bob", "two"),
        ])
        let downloader = ImageDownloader(imageCache: nil)
        downloader.addAuthentication(user: "mallory", password: "wrong")
        downloader.delegate = delegate
        let recorder = Recorder<Completion>()
        let alice = downloader.downloadImage(URLRequest: alicePath, completion: recorder.handler("alice"))
        let bob = downloader.downloadImage(URLRequest: bobPath, completion: recorder.handler("bob"))
        #expect(alice?.request.credential?.user == "alice" && bob?.request.credential?.user == "bob")
        #expect(await eventually { recorder.count == 2 })
        let byTag = Dictionary(uniqueKeysWithValues: recorder.values.map { ($0.tag, $0) })
        #expect(byTag["alice"]?.image?.width == 10)
        #expect(byTag["bob"]?.image?.width == 20)
    }

    @Test func fallsBackToTheDownloaderCredentialWhenTheDelegateHasNone() async throws {
        let server = try await AFIServer.start()
        server.server.serve(TestImages.png(), at: "c.png")
        let delegate = CredentialsByPath([:])
        let downloader = ImageDownloader(imageCache: nil)
        downloader.addAuthentication(
            usingCredential: URLCredential(user: "carol", password: "three", persistence: .none))
        downloader.delegate = delegate
        let recorder = Recorder<Completion>()
        downloader.downloadImage(
            URLRequest: server.server.url("/basic/carol/three/c.png"), completion: recorder.handler())
        #expect(await eventually { recorder.count == 1 })
        #expect(recorder.values.first?.image != nil)
        #expect(delegate.askedPaths == ["/basic/carol/three/c.png"])
    }
}

/// A delegate that knows one credential per URL path and records what it was asked.
final class CredentialsByPath: ImageDownloaderDelegate, @unchecked Sendable {
    // `asked` is only touched under `lock`; `credentials` never changes.
    private let credentials: [String: (String, String)]
    private let lock = NSLock()
    private var asked: [String] = []

    init(_ credentials: [String: (String, String)]) {
        self.credentials = credentials
    }

    var askedPaths: [String] { lock.withLock { asked } }

    func authenticationCredentialForURLRequest(_ urlRequest: URLRequest) -> URLCredential? {
        let path = urlRequest.url?.path ?? ""
        lock.withLock { asked.append(path) }
        return credentials[path].map { URLCredential(user: $0.0, password: $0.1, persistence: .forSession) }
    }
}
