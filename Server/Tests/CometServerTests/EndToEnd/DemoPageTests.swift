import CometServer
import Foundation
import Testing

/// `comet-server --demo`: its page's images are signed service URLs that all load.
@Suite("Demo page", .timeLimit(.minutes(10)))
struct DemoPageTests {
    let client = HTTPClient(timeout: 60)

    @Test func everyImageOnTheDemoPageLoadsInItsFormat() async throws {
        let server = try await RunningServer.start(demo: await DemoGallery.make())
        do {
            let page = try await client.get(URL(string: server.base + "/")!)
            #expect(page.status == 200)
            let html = String(decoding: page.body, as: UTF8.self)
            let sources = html.matches(of: /<img src="([^"]+)"/).map { String($0.output.1) }
            #expect(sources.count >= 20)
            var types = Set<String>()
            for source in sources {
                let answer = try await client.get(
                    URL(string: server.base + source)!, headers: ["Accept": "image/avif,image/webp,*/*"])
                #expect(answer.status == 200, "\(source)")
                let type = answer.header("Content-Type") ?? ""
                types.insert(type)
                let matchesType =
                    switch type {
                    case "image/jpeg": Magic.isJPEG(answer.body)
                    case "image/png": Magic.isPNG(answer.body)
                    case "image/webp": Magic.isWebP(answer.body)
                    case "image/avif": Magic.isAVIF(answer.body)
                    default: false
                    }
                #expect(matchesType, "\(source) answered \(type)")
            }
            #expect(types == ["image/jpeg", "image/png", "image/webp", "image/avif"])
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
