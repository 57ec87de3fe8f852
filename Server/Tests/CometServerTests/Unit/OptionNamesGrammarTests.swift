@testable import CometServer
import Testing

/// Every name imgproxy's parser knows an option by (`options/parser/processing_options.go`)
/// reads as that option here.
@Suite("imgproxy's option names")
struct OptionNamesGrammarTests {
    /// imgproxy's names of each option, by the option's short name here.
    private static let imgproxyNames: [(name: String, short: String)] = [
        ("resize", "rs"), ("rs", "rs"), ("size", "s"), ("s", "s"), ("resizing_type", "rt"), ("rt", "rt"),
        ("width", "w"), ("w", "w"), ("height", "h"), ("h", "h"), ("min-width", "mw"), ("mw", "mw"),
        ("min-height", "mh"), ("mh", "mh"), ("zoom", "z"), ("z", "z"), ("dpr", "dpr"), ("enlarge", "el"),
        ("el", "el"), ("extend", "ex"), ("ex", "ex"), ("extend_aspect_ratio", "exar"), ("extend_ar", "exar"),
        ("exar", "exar"), ("gravity", "g"), ("g", "g"), ("crop", "c"), ("c", "c"), ("trim", "t"), ("t", "t"),
        ("padding", "pd"), ("pd", "pd"), ("auto_rotate", "ar"), ("ar", "ar"), ("rotate", "rot"), ("rot", "rot"),
        ("flip", "fl"), ("fl", "fl"), ("background", "bg"), ("bg", "bg"), ("blur", "bl"), ("bl", "bl"),
        ("sharpen", "sh"), ("sh", "sh"), ("pixelate", "pix"), ("pix", "pix"), ("watermark", "wm"), ("wm", "wm"),
        ("strip_metadata", "sm"), ("sm", "sm"), ("keep_copyright", "kcr"), ("kcr", "kcr"),
        ("strip_color_profile", "scp"), ("scp", "scp"), ("enforce_thumbnail", "eth"), ("eth", "eth"),
        ("quality", "q"), ("q", "q"), ("format_quality", "fq"), ("fq", "fq"), ("max_bytes", "mb"), ("mb", "mb"),
        ("format", "f"), ("f", "f"), ("ext", "f"), ("skip_processing", "skp"), ("skp", "skp"), ("raw", "raw"),
        ("cachebuster", "cb"), ("cb", "cb"), ("expires", "exp"), ("exp", "exp"), ("filename", "fn"), ("fn", "fn"),
        ("return_attachment", "att"), ("att", "att"), ("max_src_resolution", "msr"), ("msr", "msr"),
        ("max_src_file_size", "msfs"), ("msfs", "msfs"), ("max_animation_frames", "maf"), ("maf", "maf"),
        ("max_animation_frame_resolution", "mafr"), ("mafr", "mafr"), ("max_result_dimension", "mrd"),
        ("mrd", "mrd"),
    ]

    @Test(arguments: imgproxyNames.map(\.name))
    func imgproxysNameReadsAsItsOption(_ name: String) throws {
        let short = try #require(Self.imgproxyNames.first { $0.name == name }?.short)
        let option = try #require(ThumbnailOptions.table.first { $0.name == short })
        let spelled = name + option.example.dropFirst(short.count)
        #expect(
            try ThumbnailOptions.parse(spelled, maximumDimension: 4096)
                == ThumbnailOptions.parse(option.example, maximumDimension: 4096))
    }

    @Test func flipIsSpelledFl() throws {
        #expect(try ThumbnailOptions.parse("flip:1", maximumDimension: 4096).canonical == "fl:1:0")
    }

    @Test func everyOptionButCometsOwnIsImgproxys() {
        // Comet's own options, which imgproxy's open-source parser does not have.
        let cometOnly: Set = ["cr", "grayscale", "brightness", "contrast"]
        let imgproxyShortNames = Set(Self.imgproxyNames.map(\.short))
        #expect(Set(ThumbnailOptions.table.map(\.name)).subtracting(cometOnly) == imgproxyShortNames)
    }
}
