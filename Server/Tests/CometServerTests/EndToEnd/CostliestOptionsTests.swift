import Comet
import CometServer
import Foundation
import Testing

/// Whether the costliest legal combination of options answers within the default processing
/// timeout (30 s) on a 2-core machine: every effect at its bound, at the largest result, searched
/// by `mb` as AVIF (the slowest encoder) and watermarked. Not a timing assertion: it checks the
/// answer is the image (200), not a 503 or a 504.
///
/// It does not yet: on this machine, at 3996×3996, `bl:256` alone took 27 s and `sh:16` alone
/// more than 30 s (a 97-tap Gaussian per pass), so the bounds of `bl` and `sh` are too generous
/// for the largest results. Disabled until those bounds or those effects change (issue #42).
@Suite("The costliest options within the processing timeout", .timeLimit(.minutes(2)))
struct CostliestOptionsTests {
    /// Past the server's 30 s timeout, so that its answer, not the client's, is what is seen.
    let client = HTTPClient(timeout: 90)

    @Test(.disabled("bl:256 and sh:16 at 3996×3996 each take about 30 s on 2 cores (issue #42)"))
    func theCostliestLegalCombinationAnswersWithinTheTimeout() async throws {
        let (origin, server) = try await SharedOriginAndServer.getWatermarked()
        // 3996 + 2 × 50 of padding is the largest side (4096), the photo enlarged 8.3 times.
        let options = "rs:fill:3996:3996:1:1,bl:256,sh:16,pix:1024,pd:50,wm:1:re:10:10:0.5,mb:1000,f:avif"
        let answer = try await client.get(server.url(options, origin.url("/copy/costliest/photo.jpg")))
        #expect(answer.status == 200, "\(String(decoding: answer.body.prefix(300), as: UTF8.self))")
        let image = try ImageDecoders.decode(Data(answer.body)).image
        #expect(image.width == 4096 && image.height == 4096)
    }
}
