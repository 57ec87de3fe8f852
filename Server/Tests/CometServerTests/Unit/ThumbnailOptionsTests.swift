import Comet
@testable import CometServer
import Foundation
import Testing

@Suite("The {options} grammar")
struct ThumbnailOptionsTests {
    @Test func parsesResizeQualityAndFormat() throws {
        let options = try ThumbnailOptions.parse("rs:fill:256:128/q:80/f:webp", maximumDimension: 4096)
        #expect(options.resize == .init(mode: .fill, width: 256, height: 128))
        #expect(options.quality == 80)
        #expect(options.format == .webp)
    }

    @Test func acceptsLongNamesAndSpellsThemCanonically() throws {
        let options = try ThumbnailOptions.parse(
            "format:png/resize:fit:300:0:1/crop_rect:0:0:10:20", maximumDimension: 4096)
        #expect(options.canonical == "cr:0:0:10:20/rs:fit:300:0:1/f:png")
    }

    @Test func aBackgroundIsAHexColourSpelledInLowerCase() throws {
        let options = try ThumbnailOptions.parse("background:0080FF/f:jpeg", maximumDimension: 4096)
        #expect(options.background == RGBA8(red: 0, green: 0x80, blue: 0xFF))
        #expect(options.canonical == "f:jpeg/bg:0080ff")
    }

    @Test func stripColorProfileKeepsTheProfileOnlyWhenZero() throws {
        let keeping = try ThumbnailOptions.parse("strip_color_profile:0", maximumDimension: 4096)
        #expect(keeping.stripsColorProfile == false && keeping.canonical == "scp:0")
        #expect(
            ThumbnailPlan(keeping).imageRequest(source: URL(string: "https://a.example/p.jpg")!).options
                .contains(.keepOriginalColors))
        let stripping = try ThumbnailOptions.parse("scp:1", maximumDimension: 4096)
        #expect(stripping.stripsColorProfile == true)
        #expect(!ThumbnailPlan(stripping).keepsColorProfile && !ThumbnailPlan(ThumbnailOptions()).keepsColorProfile)
    }

    @Test func aDashMeansNoOptions() throws {
        #expect(try ThumbnailOptions.parse("-", maximumDimension: 4096) == ThumbnailOptions())
        #expect(ThumbnailOptions().canonical == "")
    }

    @Test(arguments: [
        "rs:grow:10:10", "q:0", "q:101", "f:bmp", "zz:1", "bg:ff0000:1",
        "rs:fit:5000:10", "bg:ffff", "bg:xyzxyz", "bg:+12345", "bg:ff:00", "scp:2", "scp:0:1",
    ])
    func rejects(_ segment: String) {
        #expect(throws: ServiceError.self) { try ThumbnailOptions.parse(segment, maximumDimension: 4096) }
    }

    @Test func rejectionsAreBadRequests() {
        let known =
            "ar, t, rot, fl, cr, g, c, dpr, z, el, mw, mh, rs, s, w, h, rt, ex, exar, bl, sh, pix, grayscale, "
            + "brightness, contrast, pd, wm, q, fq, mb, f, bg, scp, sm, kcr, skp, raw, eth, cb, exp, fn, att, msr, "
            + "msfs, maf, mafr, mrd"
        #expect(throws: ServiceError.badOptions("unknown option \"zz\" (known: \(known))")) {
            try ThumbnailOptions.parse("zz:1", maximumDimension: 4096)
        }
    }

    @Test func outputSidesAboveTheLimitAreRefused() {
        #expect(throws: ServiceError.self) { try ThumbnailOptions.parse("rs:fit:600:600", maximumDimension: 512) }
        #expect((try? ThumbnailOptions.parse("rs:fit:512:512", maximumDimension: 512)) != nil)
    }

    @Test(arguments: [("flip:1", true, false), ("flip::1", false, true), ("flip:1:", true, false)])
    func flipsFlagsMayBeLeftOutAsInImgproxy(_ segment: String, _ horizontal: Bool, _ vertical: Bool) throws {
        let options = try ThumbnailOptions.parse(segment, maximumDimension: 4096)
        #expect(options.flip == .init(horizontal: horizontal, vertical: vertical))
    }

    @Test func aThreeDigitBackgroundIsShortForSix() throws {
        #expect(try ThumbnailOptions.parse("bg:F00", maximumDimension: 4096).canonical == "bg:ff0000")
    }
}
