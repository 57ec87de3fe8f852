import Comet
import CometServer
import Foundation
import Testing

/// Where `g`, `rot`, `flip`, `dpr` and `pd` put the origin's photo, through the server. The
/// photo's red channel is `x × 255 / 639` of its source column, so a result column's red says
/// which source column landed there.
@Suite("Gravity and geometry through the server", .timeLimit(.minutes(10)))
struct GravityAndGeometryTests {
    let client = HTTPClient()

    /// The result of `options` (as PNG) for the origin's `path`.
    private func result(_ options: String, _ path: String = "/img/photo.jpg") async throws -> Image {
        let (origin, server) = try await SharedOriginAndServer.get()
        let answer = try await client.get(server.url(options + "/f:png", origin.url(path)))
        #expect(answer.status == 200, "\(options): \(String(decoding: answer.body, as: UTF8.self))")
        return try ImageDecoders.decode(Data(answer.body)).image
    }

    /// The mean red of column `x`.
    private func red(_ image: Image, column x: Int) -> Double {
        (0..<image.height).map { Double(image.pixel(x: x, y: $0).red) }.reduce(0, +) / Double(image.height)
    }

    /// A 100×100 fill keeps 480 of the photo's 640 columns; the first and last result columns
    /// sample source columns `first + 2.4` and `first + 477.6`.
    @Test(arguments: [
        ("g:ce", 80.0), ("g:we", 0), ("g:ea", 160), ("g:fp:0:0.5", 0), ("g:fp:1:0.5", 160), ("g:fp:0.5:0.5", 80),
        ("g:we:25:0", 120), ("g:we:0.25:0", 120), ("g:ea:0.25:0", 40),
    ])
    func aFillKeepsTheColumnsItsGravityChooses(_ gravity: String, _ firstColumn: Double) async throws {
        let image = try await result("rs:fill:100:100/" + gravity)
        #expect(image.width == 100 && image.height == 100)
        let expected = (firstColumn + 2.4) * 255 / 639
        let expectedLast = (firstColumn + 477.6) * 255 / 639
        #expect(abs(red(image, column: 0) - expected) < 5, "\(gravity): first column \(red(image, column: 0))")
        #expect(abs(red(image, column: 99) - expectedLast) < 5, "\(gravity): last column \(red(image, column: 99))")
    }

    @Test func aPixelOffsetIsMultipliedByTheDevicePixelRatio() async throws {
        let image = try await result("rs:fill:100:100/g:we:25:0/dpr:2")
        #expect(image.width == 200 && image.height == 200)
        // 50 result pixels of offset are 120 source columns, as g:we:25:0 is without dpr.
        #expect(abs(red(image, column: 0) - (120 + 1.2) * 255 / 639) < 5, "\(red(image, column: 0))")
    }

    @Test func smartGravityKeepsTheDetailThatTheCentreCutsOff() async throws {
        // The 400×200 subject filled to 100×100 is halved: the centre keeps source columns
        // 100..<300, all grey; the detail is at 320..<384.
        func saturatedPixels(_ image: Image) -> Int {
            var count = 0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let p = image.pixel(x: x, y: y)
                    if max(p.red, p.green, p.blue) - min(p.red, p.green, p.blue) > 100 { count += 1 }
                }
            }
            return count
        }
        let centred = try await result("rs:fill:100:100", "/img/subject.png")
        let smart = try await result("rs:fill:100:100/g:sm", "/img/subject.png")
        #expect(saturatedPixels(centred) == 0)
        // The 32×32 detail is inside the smart crop (its edges blend with the grey).
        #expect(saturatedPixels(smart) > 28 * 28, "\(saturatedPixels(smart))")
    }

    @Test(arguments: [
        ("c:0.5:0:we", 320, 480, 0.0), ("c:0.5:0:ea", 320, 480, 320), ("c:0:240", 640, 240, 0),
        ("c:100:100:nowe:0.25:0", 100, 100, 160), ("g:ea/c:200:480", 200, 480, 440),
    ])
    func aCropAreaCutsTheSourceWhereItsGravitySays(_ options: String, _ width: Int, _ height: Int, _ left: Double)
        async throws
    {
        let image = try await result(options)
        #expect(image.width == width && image.height == height)
        // The first column's red is its source column's: x × 255 / 639.
        #expect(abs(red(image, column: 0) - left * 255 / 639) < 5, "\(options): \(red(image, column: 0))")
    }

    @Test func extendLaysTheResultOnACanvasOfTheResizesSize() async throws {
        // The 200×150 fit, centred on 200×200: 25 transparent rows above and below.
        let centred = try await result("rs:fit:200:200/ex:1")
        #expect(centred.width == 200 && centred.height == 200)
        #expect(centred.pixel(x: 100, y: 24).alpha == 0 && centred.pixel(x: 100, y: 25).alpha == 255)
        #expect(centred.pixel(x: 100, y: 174).alpha == 255 && centred.pixel(x: 100, y: 175).alpha == 0)
        let north = try await result("rs:fit:200:200/ex:1:no")
        #expect(north.pixel(x: 100, y: 0).alpha == 255 && north.pixel(x: 100, y: 150).alpha == 0)
    }

    @Test func extendAspectRatioWidensTheResultToTheResizesShape() async throws {
        // The 133×100 fit of 200×100, widened to 2:1 with its west edge kept.
        let image = try await result("rs:fit:200:100/exar:1:we")
        #expect(image.width == 200 && image.height == 100)
        #expect(image.pixel(x: 0, y: 50).alpha == 255 && image.pixel(x: 199, y: 50).alpha == 0)
    }

    @Test func trimCutsTheTransparentBorderOffTheBadge() async throws {
        // The badge is opaque where (x − 32)² + (y − 32)² < 28²: columns and rows 5 to 59.
        let image = try await result("t:0", "/img/badge.png")
        #expect(image.width == 55 && image.height == 55)
        #expect(image.pixel(x: 27, y: 0).alpha == 255 && image.pixel(x: 0, y: 0).alpha == 0)
    }

    /// imgproxy judges a translucent source as laid on magenta: its transparent border is
    /// magenta's, trimmed with no colour or `ff00ff`, kept with white.
    @Test(arguments: [("t:1", 55), ("t:1:ff00ff", 55), ("t:1:f0f", 55), ("t:1:ffffff", 64)])
    func aTransparentBorderIsTrimmedAsMagenta(_ options: String, _ side: Int) async throws {
        let image = try await result(options, "/img/badge.png")
        #expect(image.width == side && image.height == side, "\(options): \(image.width)×\(image.height)")
        #expect(image.pixel(x: 0, y: 0).alpha == 0)
    }

    @Test func enlargeLetsTheResizeEnlargeUnderTheKeyOfRsWithUp() async throws {
        let (origin, server) = try await SharedOriginAndServer.get()
        let enlarged = try await client.get(server.url("rs:fit:1280:1280/el:1/f:png", origin.url("/img/photo.jpg")))
        let up = try await client.get(server.url("rs:fit:1280:1280:1/f:png", origin.url("/img/photo.jpg")))
        let image = try ImageDecoders.decode(Data(enlarged.body)).image
        #expect(image.width == 1280 && image.height == 960)
        #expect(enlarged.header("ETag") != nil && enlarged.header("ETag") == up.header("ETag"))
    }

    @Test func aQuarterTurnSwapsTheSidesAndBringsTheBottomLeftCornerToTheTopLeft() async throws {
        let image = try await result("rot:90/rs:fit:160:160")
        #expect(image.width == 120 && image.height == 160)
        let topLeft = image.pixel(x: 1, y: 1)
        // The photo's bottom left corner: no red, full green.
        #expect(topLeft.red < 12 && topLeft.green > 240, "\(topLeft)")
        let topRight = image.pixel(x: 118, y: 1)
        #expect(topRight.red < 12 && topRight.green < 12, "\(topRight)")
    }

    @Test func aHorizontalFlipBringsTheRightEdgeToTheLeft() async throws {
        let image = try await result("flip:1:0/rs:fit:160:120")
        #expect(image.width == 160 && image.height == 120)
        #expect(red(image, column: 0) > 245 && red(image, column: 159) < 10)
    }

    @Test func zoomMultipliesEachSideOfTheResize() async throws {
        let image = try await result("rs:force:100:100/z:1.5:0.5")
        #expect(image.width == 150 && image.height == 50)
    }

    @Test func theDevicePixelRatioMultipliesTheResize() async throws {
        let image = try await result("rs:fit:100:100/dpr:2")
        #expect(image.width == 200 && image.height == 150)
    }

    @Test func paddingAddsTransparentSidesAroundTheResult() async throws {
        let image = try await result("rs:fit:100:75/pd:10:20")
        #expect(image.width == 140 && image.height == 95)
        #expect(image.pixel(x: 0, y: 0).alpha == 0 && image.pixel(x: 139, y: 94).alpha == 0)
        let corner = image.pixel(x: 20, y: 10)
        #expect(corner.alpha == 255 && corner.red < 12 && corner.green < 12, "\(corner)")
    }

    @Test func paddingIsInTheBackgroundColourWhenOneIsGiven() async throws {
        let image = try await result("rs:fit:100:75/pd:5/bg:ff0000")
        #expect(image.width == 110 && image.height == 85)
        #expect(image.pixel(x: 0, y: 0) == RGBA8(red: 255, green: 0, blue: 0))
    }
}
