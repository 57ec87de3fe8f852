import Foundation
import Testing

/// Every processing option of imgproxy's open-source parser (the names of
/// `options/parser/processing_options.go`'s `applyURLOption`), in each of its names, with a
/// valid argument: a real server serves each (the area suites check what each does). The
/// security options, refused unless allowed, are ``SecurityOptionConformanceTests``'.
@Suite("Conformance: option names", .timeLimit(.minutes(10)))
struct OptionNameConformanceTests {
    /// Each option's names and one valid argument list.
    static let options: [(names: [String], arguments: String)] = [
        (["resize", "rs"], "fit:50:50"), (["size", "s"], "50:50"), (["resizing_type", "rt"], "fill"),
        (["width", "w"], "50"), (["height", "h"], "50"), (["min-width", "mw"], "50"), (["min-height", "mh"], "50"),
        (["zoom", "z"], "0.5"), (["dpr"], "2"), (["enlarge", "el"], "1"), (["extend", "ex"], "1"),
        (["extend_aspect_ratio", "extend_ar", "exar"], "1"), (["gravity", "g"], "sm"), (["crop", "c"], "50:50"),
        (["trim", "t"], "10"), (["padding", "pd"], "5"), (["auto_rotate", "ar"], "1"), (["rotate", "rot"], "90"),
        (["flip", "fl"], "1"), (["background", "bg"], "ff0000"), (["blur", "bl"], "1"), (["sharpen", "sh"], "1"),
        (["pixelate", "pix"], "2"), (["strip_metadata", "sm"], "1"), (["keep_copyright", "kcr"], "0"),
        (["strip_color_profile", "scp"], "1"), (["enforce_thumbnail", "eth"], "1"), (["quality", "q"], "80"),
        (["format_quality", "fq"], "jpeg:80"), (["max_bytes", "mb"], "100000"), (["format", "f", "ext"], "png"),
        (["skip_processing", "skp"], "jpg"), (["raw"], "1"), (["cachebuster", "cb"], "1"),
        (["expires", "exp"], "4102444800"), (["filename", "fn"], "cat"), (["return_attachment", "att"], "1"),
    ]

    static let namedOptions = options.flatMap { option in option.names.map { "\($0):\(option.arguments)" } }

    /// imgproxy: options/parser/processing_options.go's applyURLOption (every name, short and long).
    @Test(arguments: namedOptions)
    func everyNameOfEveryOptionIsServed(_ option: String) async throws {
        let origin = try await ConformanceOrigin.get()
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain(option, origin.source("/gen/200x100.jpg")))
        #expect(answer.status == 200, "\(option): \(answer.text)")
    }

    /// imgproxy: options/parser/processing_options.go's applyURLOption (`watermark` and `wm`, on
    /// a server with a watermark).
    @Test(arguments: ["watermark:0.5", "wm:0.5"])
    func bothNamesOfWatermarkAreServed(_ option: String) async throws {
        let origin = try await ConformanceOrigin.get()
        let answer = try await ConformanceServers.watermarked().get(
            ImgproxyPath.plain(option, origin.source("/gen/200x100.jpg")))
        #expect(answer.status == 200, "\(option): \(answer.text)")
    }

    /// imgproxy: options/parser/processing_options.go's applyURLOption (`preset` and `pr`, on a
    /// server with presets).
    @Test(arguments: ["preset:small", "pr:small"])
    func bothNamesOfPresetAreServed(_ option: String) async throws {
        let origin = try await ConformanceOrigin.get()
        let answer = try await ConformanceServers.presets().get(
            ImgproxyPath.plain(option, origin.source("/gen/200x100.jpg")))
        #expect(answer.status == 200, "\(option): \(answer.text)")
    }
}
