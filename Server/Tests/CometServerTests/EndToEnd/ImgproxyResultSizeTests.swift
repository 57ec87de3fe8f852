import Comet
import CometServer
import Foundation
import Testing

/// The result sizes imgproxy's own processing tests expect, through the server, on a 200×100
/// source as theirs (``MadeSource``'s `200x100.jpg`): every resizing type, with and without
/// enlarging, extending and extending to the aspect ratio, on boxes smaller and larger than the
/// source; then its crop tests' device pixel ratio cases. Each case is `rs:{type}:{w}:{h}`
/// and the option under test.
@Suite("imgproxy's result sizes through the server", .serialized, .timeLimit(.minutes(10)))
struct ImgproxyResultSizeTests {
    let client = HTTPClient()

    /// One of imgproxy's resize test suites: a type, the option beside it, and each box with the
    /// result imgproxy expects, written `{w}x{h}={width}x{height}`.
    struct Case: CustomTestStringConvertible, Sendable {
        var type: String
        var option: String
        var sizes: String
        var testDescription: String { "\(type) \(option.isEmpty ? "alone" : option)" }

        /// The boxes and results.
        var pairs: [(box: (Int, Int), result: (Int, Int))] {
            sizes.split(separator: " ").map { pair in
                let sides = pair.split(whereSeparator: { $0 == "=" || $0 == "x" }).map { Int($0)! }
                return ((sides[0], sides[1]), (sides[2], sides[3]))
            }
        }
    }

    private static let small = "50x50=50x50 50x20=50x20 20x50=20x50 "
    private static let enlarged =
        "300x300=300x300 300x125=300x125 250x300=250x300 0x50=100x50 50x0=50x25 0x200=400x200 300x0=300x150"

    static let cases: [Case] = [
        Case(
            type: "fit", option: "",
            sizes: "50x50=50x25 50x20=40x20 20x50=20x10 300x300=200x100 300x50=100x50 100x300=100x50 0x50=100x50 "
                + "50x0=50x25 0x200=200x100 300x0=200x100"),
        Case(
            type: "fit", option: "el:1",
            sizes: "50x50=50x25 50x20=40x20 20x50=20x10 300x300=300x150 300x125=250x125 250x300=250x125 0x50=100x50 "
                + "50x0=50x25 0x200=400x200 300x0=300x150"),
        Case(
            type: "fit", option: "ex:1",
            sizes: small + "300x300=300x300 300x125=300x125 250x300=250x300 0x50=100x50 50x0=50x25 0x200=200x200 "
                + "300x0=300x100"),
        Case(
            type: "fit", option: "exar:1",
            sizes: small + "300x300=200x200 300x125=240x100 250x500=200x400 0x50=100x50 50x0=50x25 0x200=200x100 "
                + "300x0=200x100"),
        Case(
            type: "fill", option: "",
            sizes: small + "300x300=200x100 300x50=200x50 100x300=100x100 0x50=100x50 50x0=50x25 0x200=200x100 "
                + "300x0=200x100"),
        Case(type: "fill", option: "el:1", sizes: small + enlarged),
        Case(
            type: "fill", option: "ex:1",
            sizes: small + "300x300=300x300 300x125=300x125 250x300=250x300 300x50=300x50 100x300=100x300 "
                + "0x50=100x50 50x0=50x25 0x200=200x200 300x0=300x100"),
        Case(
            type: "fill", option: "exar:1",
            sizes: small + "300x300=200x200 300x125=240x100 250x500=200x400 300x50=300x50 100x300=100x300 "
                + "0x50=100x50 50x0=50x25 0x200=200x100 300x0=200x100"),
        Case(
            type: "fill-down", option: "",
            sizes: small + "300x300=100x100 300x125=200x83 250x300=83x100 0x50=100x50 50x0=50x25 0x200=200x100 "
                + "300x0=200x100"),
        Case(type: "fill-down", option: "el:1", sizes: small + enlarged),
        Case(
            type: "fill-down", option: "ex:1",
            sizes: small + "300x300=300x300 300x125=300x125 250x300=250x300 300x50=300x50 100x300=100x300 "
                + "0x50=100x50 50x0=50x25 0x200=200x200 300x0=300x100"),
        Case(
            type: "fill-down", option: "exar:1",
            sizes: small + "300x300=100x100 300x125=200x83 250x300=83x100 0x50=100x50 50x0=50x25 0x200=200x100 "
                + "300x0=200x100"),
    ]

    /// The result's size for `options` on the 200×100 source.
    private func size(_ options: String) async throws -> (Int, Int) {
        let (origin, server) = try await SharedOriginAndServer.get()
        let answer = try await client.get(server.url(options + "/f:png", origin.url("/made/200x100.jpg")))
        #expect(answer.status == 200, "\(options): \(String(decoding: answer.body, as: UTF8.self))")
        let image = try ImageDecoders.decode(Data(answer.body)).image
        return (image.width, image.height)
    }

    @Test(arguments: cases)
    func eachTypeGivesImgproxysSizes(_ test: Case) async throws {
        for (box, expected) in test.pairs {
            let options = "rs:\(test.type):\(box.0):\(box.1)" + (test.option.isEmpty ? "" : "/" + test.option)
            let made = try await size(options)
            #expect(made == expected, "\(options) made \(made.0)×\(made.1), imgproxy \(expected.0)×\(expected.1)")
        }
    }

    @Test func fillDownEnlargingASmallSourceGivesTheWholeBox() async throws {
        let made = try await size("rs:fill-down:300:300/el:1")
        #expect(made == (300, 300))
    }

    /// imgproxy's crop tests: a fill's size times the ratio, held where it would enlarge.
    @Test(arguments: [
        ("rs:fill:100:26/dpr:2", 200, 52), ("rs:fill:100:26/g:no:0:5/dpr:0.5", 50, 13),
        ("rs:fill:100:26/g:no:0:5/dpr:2", 200, 52), ("rs:fill:26:100/g:no:5:0/dpr:0.5", 13, 50),
        ("rs:fill:26:100/g:no:5:0/dpr:2", 26, 100), ("rs:fill:100:26/g:no:0:0.1/dpr:0.5", 50, 13),
        ("c:50:50:ce:10:10/dpr:0.5", 25, 25), ("c:50:50/dpr:2", 50, 50), ("c:50:50/dpr:2/el:1", 100, 100),
    ])
    func theDevicePixelRatioScalesTheResultButDoesNotEnlargeIt(_ options: String, _ width: Int, _ height: Int)
        async throws
    {
        let made = try await size(options)
        #expect(made == (width, height), "\(options) made \(made.0)×\(made.1)")
    }

    @Test(arguments: ["rs:auto:0:0", "rs:fit:0:0", "rs:fill:0:0", "rs:fill-down:0:0", "rs:force:0:0", "s:0:0"])
    func aResizeOfZeroSidesKeepsTheSourcesSize(_ options: String) async throws {
        let made = try await size(options)
        #expect(made == (200, 100), "\(options) made \(made.0)×\(made.1)")
    }

    /// `force` without enlarging keeps the box's shape at most the source's size, and a side of
    /// 0 keeps the source's.
    @Test(arguments: [
        ("rs:force:50:50", 50, 50), ("rs:force:400:50", 200, 25), ("rs:force:400:50:1", 400, 50),
        ("rs:force:0:50", 200, 50), ("rs:force:100:0", 100, 100),
    ])
    func forceStretchesWithinTheSource(_ options: String, _ width: Int, _ height: Int) async throws {
        let made = try await size(options)
        #expect(made == (width, height), "\(options) made \(made.0)×\(made.1)")
    }
}
