import Comet
@testable import CometServer
import Foundation
import Testing

@Suite("The size options: rs, s, w, h, rt, mw, mh, one spelling each")
struct SizeOptionsGrammarTests {
    private func parse(_ segment: String) throws -> ThumbnailOptions {
        try ThumbnailOptions.parse(segment, maximumDimension: 4096)
    }

    @Test(arguments: [
        ("s:300:200", "rs:fit:300:200"), ("size:300", "rs:fit:300:0"), ("w:300", "rs:fit:300:0"),
        ("h:200", "rs:fit:0:200"), ("width:300/height:200/resizing_type:fill", "rs:fill:300:200"),
        ("rt:force/s:300:200:1", "rs:force:300:200:1"), ("s:300:200/el:1", "rs:fit:300:200:1"),
        ("w:300/rt:fill", "rs:fit:300:0"), ("rs:fill:0:100", "rs:fit:0:100"), ("rs:force:50:0:1", "rs:force:50:0:1"),
        ("rs:fill-down:300:200", "rs:fill-down:300:200"), ("rs:fill-down:300:200:1", "rs:fill:300:200:1"),
        ("rt:fill-down/s:300:200", "rs:fill-down:300:200"), ("rs:auto:300:200", "rs:auto:300:200"),
        ("rs:fill:100:100/w:300", "rs:fill:300:100"), ("w:300/rs:fill:100:100", "rs:fill:100:100"),
        ("s:300:200:0:1", "rs:fit:300:200/ex:1"), ("rs:fit:300:200:0:1:so", "rs:fit:300:200/ex:1:so"),
        ("s::200", "rs:fit:0:200"), ("s:300:200::1", "rs:fit:300:200/ex:1"), ("rs:fit:300:200:1:0", "rs:fit:300:200:1"),
        ("rt:fill", ""), ("s:0:0", ""), ("w:0", ""), ("mw:0", ""), ("mw:300/mh:200", "mw:300/mh:200"),
        ("dpr:2", "dpr:2"),
        ("rs:fit:0:0", ""), ("rs:fill:0:0/dpr:0.5", "dpr:0.5"),
        ("min-width:300/min-height:200/rs:fit:100:100", "mw:300/mh:200/rs:fit:100:100"),
    ])
    func theSizeOptionsAreSpelledAsRs(_ segment: String, _ canonical: String) throws {
        #expect(try parse(segment).canonical == canonical)
    }

    @Test func sizeAndResizeWithTheSameValuesShareAKey() throws {
        #expect(try parse("s:300:200/rt:fill/el:1") == parse("rs:fill:300:200:1"))
        #expect(try parse("rs:fill-down:640:480:1").canonical == parse("rs:fill:640:480/el:1").canonical)
        #expect(try parse("rs:fill-down:640:480").canonical != parse("rs:fill:640:480").canonical)
    }

    @Test func anExtendOfRsIsExs() throws {
        #expect(try parse("rs:fit:300:200:0:1:soea:5:5") == parse("rs:fit:300:200/ex:1:soea:5:5"))
        #expect(try parse("ex:1/rs:fit:300:200:0:0").extend == nil)
    }

    @Test(arguments: [
        ("rs:grow:1:1", "rs"), ("rs:fit:5000:0", "rs"), ("rs:fit:-1:10", "rs"),
        ("rs:fit:10:10:2", "rs"), ("rs:fit:10:10:0:2", "rs"), ("rs:fit:10:10:0:1:sm", "rs"),
        ("rs:fit:10:10:0:1:up", "rs"), ("s:x", "s"), ("s:5000", "s"), ("s:10:10:2", "s"),
        ("s:1:1:1:1:up", "s"), ("s", "s"), ("w:-1", "w"), ("w:4097", "w"), ("w:1.5", "w"), ("w:1:2", "w"),
        ("h:x", "h"), ("rt:grow", "rt"), ("rt:fill:1", "rt"), ("mw:-5", "mw"), ("mw:5000", "mw"),
        ("mh:x", "mh"), ("mh:1:1", "mh"), ("mw:4096/rs:fit:10:10/dpr:2", "rs, mw"),
    ])
    func aBadValueIsRefusedNamingItsOption(_ segment: String, _ name: String) {
        let error = #expect(throws: ServiceError.self) { try parse(segment) }
        #expect(error?.status == 400)
        #expect(error?.message.hasPrefix(name) == true, "\(segment): \(error?.message ?? "")")
    }

    @Test func autoAndLeastSidesAreDecidedOnTheSource() throws {
        let auto = ThumbnailPlan(try parse("rs:auto:200:100"))
        #expect(auto.processors.first is SourceAwareResize)
        let least = ThumbnailPlan(try parse("rs:fit:100:100/mw:200/dpr:2"))
        let resize = try #require(least.processors.first as? SourceAwareResize)
        #expect(resize.geometry.minimumWidth == 200 && resize.geometry.width == 100 && resize.geometry.pixelRatio == 2)
        // Without them the resize is the plain one, still reduced while decoding.
        let fit = ThumbnailPlan(try parse("rs:fit:100:100")).imageRequest(
            source: URL(string: "https://a.example/p.jpg")!)
        #expect(fit.thumbnail != nil)
    }

    /// 640×480 source: the sizes each type makes, by imgproxy's arithmetic: a least side
    /// scales the image up to it (enlarging or not), and the result is then cut to `rs`'s sides.
    @Test(arguments: [
        ("rs:auto:200:100", 200, 100), ("rs:auto:100:200", 100, 75), ("rs:fit:100:100/mw:200", 100, 100),
        ("rs:fill:100:100/mw:200", 100, 100), ("rs:fit:0:100/mh:240", 320, 100), ("rs:fit:100:0/mw:1000", 100, 750),
        ("rs:fit:100:0:1/mw:1000", 100, 750), ("rs:fit:100:100:1/mh:1000", 100, 100),
        ("rs:force:100:50/mw:200", 100, 50), ("rs:fill:2000:1000/mw:100", 640, 480), ("mw:800", 800, 600),
    ])
    func aSourceAwareResizeMakesTheseSizes(_ segment: String, _ width: Int, _ height: Int) throws {
        let source = Image(width: 640, height: 480, color: RGBA8(red: 9, green: 9, blue: 9))
        var image = source
        for processor in ThumbnailPlan(try parse(segment)).processors { image = try processor.process(image) }
        #expect(image.width == width && image.height == height, "\(segment): \(image.width)×\(image.height)")
    }
}
