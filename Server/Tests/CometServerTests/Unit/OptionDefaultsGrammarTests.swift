import Comet
@testable import CometServer
import Testing

/// Arguments left empty or out, as imgproxy's parser reads them (its own test cases among
/// them): each is that argument's default, and one option given a single empty argument is the
/// option's default again. The spelling is one: an argument left empty spells as its default.
@Suite("Arguments left empty or out mean their default")
struct OptionDefaultsGrammarTests {
    private func parse(_ segments: String) throws -> ThumbnailOptions {
        try ThumbnailOptions.parse(segments, maximumDimension: 4096)
    }

    @Test func aGravityOffsetLeftEmptyIs0() throws {
        #expect(try parse("g:no::5").gravity == .compass(.north, offsetX: 0, offsetY: 5))
    }

    @Test func aGravityOffsetLeftOutIs0() throws {
        #expect(try parse("g:no:5").gravity == .compass(.north, offsetX: 5, offsetY: 0))
    }

    @Test func aCropsGravityTakesOneOffset() throws {
        #expect(
            try parse("c:50:50:ce:10").cropArea
                == ThumbnailOptions.CropArea(width: 50, height: 50, gravity: .compass(.center, offsetX: 10)))
    }

    @Test func aCropsSideLeftEmptyOrOutIsTheWholeSide() throws {
        #expect(try parse("c:100").cropArea == ThumbnailOptions.CropArea(width: 100, height: 0))
        #expect(try parse("c::100").cropArea == ThumbnailOptions.CropArea(width: 0, height: 100))
    }

    @Test func anExtensionsGravityOffsetsMayBeLeftEmptyOrOut() throws {
        #expect(try parse("ex:1:no::5").extend == .compass(.north, offsetX: 0, offsetY: 5))
        #expect(try parse("exar:1:ea:5").extendAspectRatio == .compass(.east, offsetX: 5, offsetY: 0))
    }

    @Test func aWatermarksOffsetsAndScaleMayBeLeftEmptyOrOut() throws {
        #expect(
            try parse("wm:1:no:50").watermark
                == ThumbnailOptions.Watermark(opacity: 1, position: .compass(.north), offsetX: 50, offsetY: 0))
        #expect(
            try parse("wm:1:re:::0.5").watermark == ThumbnailOptions.Watermark(opacity: 1, position: .tiled, scale: 0.5)
        )
    }

    @Test func aTrimsColourAndFlagsMayBeLeftEmpty() throws {
        #expect(try parse("t:5:::1").trim == ThumbnailOptions.Trim(threshold: 5, equalVertical: true))
    }

    @Test func aTrimWithItsThresholdLeftEmptyIsNoTrim() throws {
        #expect(try parse("t:10/t::ff0000").trim == nil)
    }

    @Test func aWatermarkWithItsOpacityLeftEmptyIsNone() throws {
        #expect(try parse("wm::so").watermark == nil)
    }

    @Test(arguments: [
        ("g:no::5", "g:no:0:5"), ("g:no:5", "g:no:5:0"), ("g:ce::", "g:ce"), ("c:50:50:ce:10", "c:50:50:ce:10:0"),
        ("c:100", "c:100:0"), ("ex:1:no::5", "ex:1:no:0:5"), ("ex::so", "ex:0"), ("exar:1:ea:5", "exar:1:ea:5:0"),
        ("wm:1:no:50", "wm:1:no:50:0:0"), ("wm:1:re:::0.5", "wm:1:re:0:0:0.5"), ("t:5:::1", "t:5::0:1"),
        ("pd:10::20", "pd:10:10:20:10"), ("pd::5", "pd:0:5:0:5"), ("pd:0", ""), ("z:2:", "z:2"), ("z::2", "z:1:2"),
        ("fl::1", "fl:0:1"), ("bg:255::0", "bg:255:0:0"), ("fq:jpeg:80/fq:jpeg:", ""), ("s:300:", "s:300:0"),
        ("rs:fit:300:200:::so", "rs:fit:300:200"), ("c:0:0:sm", ""), ("skp:jpg::png", "skp:jpg:png"),
    ])
    func aValueLeftEmptyIsSpelledAsItsDefault(_ leftEmpty: String, _ writtenOut: String) throws {
        #expect(try parse(leftEmpty) == parse(writtenOut))
        #expect(try parse(leftEmpty).canonical == parse(writtenOut).canonical)
    }

    /// The options whose empty arguments each leave a part of the resize as it was, and `raw`,
    /// which is spelled as the `skp` it sets (`raw:` changes nothing, as `raw:0` does).
    private static let partwiseOptions = ["rs", "s", "raw"]

    @Test(arguments: ThumbnailOptions.table.map(\.name).filter { !partwiseOptions.contains($0) })
    func anOptionGivenOneEmptyArgumentIsItsDefaultAgain(_ name: String) throws {
        let option = try #require(ThumbnailOptions.table.first { $0.name == name })
        #expect(try parse("\(option.example)/\(name):").canonical == "", "\(option.example)/\(name):")
    }

    @Test(arguments: [
        ("rs:fill:300:200/rs::100", "rs:fill:100:200"), ("rs:fill:300:200/rs:fit", "rs:fit:300:200"),
        ("rs:fill:300:200:1/rs:fit:100:100", "rs:fit:100:100:1"), ("rs:fill:300:200/s::50", "rs:fill:300:50"),
        ("rs:fill:300:200/rs:", "rs:fill:300:200"), ("rs:fit:300:200/ex:1/rs:fit:300:200::", "rs:fit:300:200/ex:1"),
    ])
    func aResizesPartLeftEmptyOrOutIsLeftAsItWas(_ segments: String, _ canonical: String) throws {
        #expect(try parse(segments).canonical == canonical)
    }

    @Test func formatQualitiesAddToThoseGivenBefore() throws {
        #expect(try parse("fq:jpeg:80/fq:webp:70").formatQualities == [.jpeg: 80, .webp: 70])
    }

    @Test func skippedFormatsAddToThoseGivenBefore() throws {
        #expect(try parse("skp:png/skp:jpg").skippedSourceFormats == [.jpeg, .png])
    }

    @Test func aCropsGravityEqualToTheGravitysIsSpelledAsNone() throws {
        #expect(try parse("g:ea/c:10:10:ea").canonical == "g:ea/c:10:10")
        #expect(try parse("c:10:10:ce").canonical == "c:10:10")
    }

    @Test(arguments: ["q", "rs", "s", "bg"])
    func anOptionWithoutArgumentsIsRefusedNamingIt(_ name: String) {
        let error = #expect(throws: ServiceError.self) { try parse(name) }
        #expect(error?.status == 400 && error?.message.hasPrefix(name) == true, "\(error?.message ?? "")")
    }
}
