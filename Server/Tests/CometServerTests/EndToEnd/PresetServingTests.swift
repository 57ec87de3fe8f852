import Comet
import CometServer
import Foundation
import Testing

/// A server started with presets and `--only-presets` (``SharedOriginAndServer/presets``:
/// `default` PNG, `thumb` a 100×100 fill with west gravity, `gray`), asked through HTTP.
@Suite("Presets through the server", .timeLimit(.minutes(10)))
struct PresetServingTests {
    let client = HTTPClient()

    private func get(_ options: String, _ path: String = "/img/photo.jpg") async throws -> HTTPClient.Answer {
        let (origin, server) = try await SharedOriginAndServer.getPresetsOnly()
        return try await client.get(server.url(options, origin.url(path)))
    }

    @Test func aPresetGivesItsOptions() async throws {
        let answer = try await get("pr:thumb")
        #expect(answer.status == 200 && answer.header("Content-Type") == "image/png")
        let image = try ImageDecoders.decode(Data(answer.body)).image
        #expect(image.width == 100 && image.height == 100)
        // West gravity: the first column is the photo's left edge (red 0).
        #expect(image.pixel(x: 0, y: 50).red < 8)
    }

    @Test func presetsApplyInTheOrderNamed() async throws {
        let answer = try await get("pr:thumb:gray")
        let image = try ImageDecoders.decode(Data(answer.body)).image
        let pixel = image.pixel(x: 60, y: 40)
        #expect(image.width == 100 && pixel.red == pixel.green && pixel.green == pixel.blue)
    }

    @Test func theBareFormNamesPresetsAsImgproxysOnlyPresetsModeDoes() async throws {
        let answer = try await get("thumb:gray")
        #expect(answer.status == 200 && answer.header("Content-Type") == "image/png")
        let image = try ImageDecoders.decode(Data(answer.body)).image
        let pixel = image.pixel(x: 60, y: 40)
        #expect(image.width == 100 && pixel.red == pixel.green && pixel.green == pixel.blue)
    }

    @Test func theDefaultPresetAppliesBeforeTheNamedOnes() async throws {
        // Under only-presets the first segment always names presets: `default` alone is the
        // URL that asks for nothing else.
        let answer = try await get("default")
        #expect(answer.status == 200 && answer.header("Content-Type") == "image/png")
        let image = try ImageDecoders.decode(Data(answer.body)).image
        #expect(image.width == 640 && image.height == 480)
    }

    @Test func anOptionIsA400OnAPresetsOnlyServerBeforeAnyFetch() async throws {
        let (origin, _) = try await SharedOriginAndServer.getPresetsOnly()
        let answer = try await get("rs:fit:10:10", "/never/presets-only.jpg")
        #expect(answer.status == 400 && answer.errorCode == "bad_options")
        #expect(origin.requests("/never/presets-only.jpg") == 0)
    }

    @Test func anUnknownPresetIsA400() async throws {
        let answer = try await get("pr:nope", "/never/unknown-preset.jpg")
        #expect(answer.status == 400 && answer.errorCode == "bad_options")
    }
}
