import Comet
import CometServer
import Foundation
import Testing

/// What each resize option makes of the origin's 640×480 photo.
@Suite("Resizing", .timeLimit(.minutes(10)))
struct ResizeTests {
    let client = HTTPClient()

    @Test(arguments: [
        ("rs:fit:100:100", 100, 75), ("rs:fit:100:0", 100, 75), ("rs:fit:0:60", 80, 60), ("rs:fill:100:100", 100, 100),
        ("rs:force:50:120", 50, 120), ("rs:fit:1280:1280", 640, 480), ("rs:fit:1280:1280:1", 1280, 960),
        ("cr:0:0:320:480/rs:fit:100:100", 67, 100), ("q:90", 640, 480),
    ])
    func outputSize(_ options: String, _ width: Int, _ height: Int) async throws {
        try await withOriginAndServer { origin, server in
            let answer = try await client.get(server.url(options + "/f:png", origin.url("/img/photo.jpg")))
            #expect(answer.status == 200)
            let image = try ImageDecoders.decode(Data(answer.body)).image
            #expect(image.width == width && image.height == height, "\(options) made \(image.width)×\(image.height)")
        }
    }
}
