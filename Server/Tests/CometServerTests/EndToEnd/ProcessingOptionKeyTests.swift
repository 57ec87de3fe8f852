import Comet
import CometServer
import Foundation
import Testing

/// The gravity, geometry and effect options as a client meets them: a bad value is a 400 that
/// names the option before the source is fetched, and the result key and ETag follow what the
/// options mean, not how the URL spells them.
@Suite("Processing options: refusals and keys through the server", .timeLimit(.minutes(10)))
struct ProcessingOptionKeyTests {
    let client = HTTPClient()

    @Test(arguments: [
        ("g:up", "g"), ("g:fp:2:0", "g: fp"), ("rot:45", "rot"), ("flip:2", "fl"), ("dpr:0", "dpr"),
        ("pd:-1", "pd"), ("bl:300", "bl"), ("sh:20", "sh"), ("pix:2000", "pix"), ("grayscale:x", "grayscale"),
        ("brightness:101", "brightness"), ("contrast:x", "contrast"), ("rs:fit:3000:0/dpr:2", "rs, z, pd and dpr"),
    ])
    func aBadValueIsA400NamingTheOptionBeforeAnyFetch(_ options: String, _ name: String) async throws {
        let (origin, server) = try await SharedOriginAndServer.get()
        let path = "/never/\(options.utf8.map { String($0) }.joined()).jpg"
        let answer = try await client.get(server.url(options, origin.url(path)))
        #expect(answer.status == 400 && answer.errorCode == "bad_options")
        let object = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: [String: Any]]
        let message = try #require(object?["error"]?["message"] as? String)
        #expect(message.hasPrefix(name), "\(message)")
        #expect(origin.requests(path) == 0)
    }

    @Test func theSameOptionsSpelledAnotherWayShareOneResult() async throws {
        let (origin, server) = try await SharedOriginAndServer.get()
        let source = origin.url("/copy/spellings/photo.jpg")
        let short = try await client.get(server.url("rs:fill:100:100/g:we:0.25:0/sh:0.5/pd:4/f:png", source))
        let long = try await client.get(
            server.url("padding:4:4/sharpen:0.50/gravity:we:0.250:0/resize:fill:100:100/format:png", source))
        #expect(short.status == 200 && long.status == 200)
        #expect(short.header("ETag") != nil && short.header("ETag") == long.header("ETag"))
        #expect(short.body == long.body)
        #expect(origin.requests("/copy/spellings/photo.jpg") == 1)
    }

    @Test(arguments: [
        ("g:we", "g:ea"), ("g:we:10:0", "g:we:20:0"), ("g:sm", "g:fp:0.5:0.5"), ("dpr:2", "dpr:3"),
        ("rot:90", "rot:270"), ("flip:1:0", "flip:0:1"), ("bl:1", "bl:2"), ("sh:0.5", "sh:1"),
        ("pix:4", "pix:8"), ("brightness:10", "contrast:10"), ("pd:1", "pd:2"),
    ])
    func differentValuesAreDifferentResults(_ one: String, _ other: String) async throws {
        let (origin, server) = try await SharedOriginAndServer.get()
        let source = origin.url("/img/photo.jpg")
        let first = try await client.get(server.url("rs:fill:100:100/" + one + "/f:png", source))
        let second = try await client.get(server.url("rs:fill:100:100/" + other + "/f:png", source))
        #expect(first.status == 200 && second.status == 200)
        #expect(first.header("ETag") != second.header("ETag"))
    }
}
