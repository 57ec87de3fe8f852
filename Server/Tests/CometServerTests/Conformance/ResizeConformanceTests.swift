import Foundation
import Testing

/// Result sizes of every resizing type, with and without enlarging and extending, for a 200×100
/// JPEG (the size of imgproxy's `test2.jpg`), as imgproxy's processing tests expect them.
@Suite("Conformance: resizing", .timeLimit(.minutes(10)))
struct ResizeConformanceTests {
    /// The size of `options`' PNG result of the 200×100 JPEG.
    static func size(_ options: String, _ path: String = "/gen/200x100.jpg") async throws -> ConformanceAnswer.Size? {
        let origin = try await ConformanceOrigin.get()
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain(options, origin.source(path), ext: "png"))
        #expect(answer.status == 200, "\(options): \(answer.text)")
        return answer.size
    }

    /// `rs:{type}:{w}:{h}` plus `extra`, for imgproxy's table of (w, h) → (width, height).
    private func check(_ type: String, _ extra: String, _ box: (Int, Int), _ expected: (Int, Int)) async throws {
        let options = "rs:\(type):\(box.0):\(box.1)" + extra
        let size = try await Self.size(options)
        #expect(
            size == .init(width: expected.0, height: expected.1), "\(options) made \(size?.description ?? "nothing")")
    }

    private static let fitExtended: [Case] = [
        ((50, 50), (50, 50)), ((50, 20), (50, 20)), ((20, 50), (20, 50)), ((300, 300), (300, 300)),
        ((300, 125), (300, 125)), ((250, 300), (250, 300)), ((0, 50), (100, 50)), ((50, 0), (50, 25)),
        ((0, 200), (200, 200)), ((300, 0), (300, 100)),
    ]
    private static let fitExtendedAspect: [Case] = [
        ((50, 50), (50, 50)), ((50, 20), (50, 20)), ((20, 50), (20, 50)), ((300, 300), (200, 200)),
        ((300, 125), (240, 100)), ((250, 500), (200, 400)), ((0, 50), (100, 50)), ((50, 0), (50, 25)),
        ((0, 200), (200, 100)), ((300, 0), (200, 100)),
    ]
    private static let forced: [(box: (Int, Int), extra: String, expected: (Int, Int))] = [
        ((50, 50), "", (50, 50)), ((300, 50), "", (200, 33)), ((50, 120), "", (42, 100)),
        ((50, 120), "/el:1", (50, 120)),
    ]
    private static let automatic: [Case] = [((100, 50), (100, 50)), ((50, 100), (50, 25)), ((300, 300), (200, 100))]

    private static let fitted: [Case] =
        smallBoxes + [
            ((300, 300), (200, 100)), ((300, 50), (100, 50)), ((100, 300), (100, 50)), ((0, 50), (100, 50)),
            ((50, 0), (50, 25)), ((0, 200), (200, 100)), ((300, 0), (200, 100)),
        ]
    private static let fitEnlarged: [Case] =
        smallBoxes + [
            ((300, 300), (300, 150)), ((300, 125), (250, 125)), ((250, 300), (250, 125)), ((0, 50), (100, 50)),
            ((50, 0), (50, 25)), ((0, 200), (400, 200)), ((300, 0), (300, 150)),
        ]
    private static let filled: [Case] =
        fillCommon + [
            ((300, 300), (200, 100)), ((300, 50), (200, 50)), ((100, 300), (100, 100)), ((0, 50), (100, 50)),
            ((50, 0), (50, 25)), ((0, 200), (200, 100)), ((300, 0), (200, 100)),
        ]
    private static let fillExtendedAspect: [Case] =
        fillCommon + [
            ((300, 300), (200, 200)), ((300, 125), (240, 100)), ((250, 500), (200, 400)), ((300, 50), (300, 50)),
            ((100, 300), (100, 300)), ((0, 50), (100, 50)), ((50, 0), (50, 25)), ((0, 200), (200, 100)),
            ((300, 0), (200, 100)),
        ]
    private typealias Case = ((Int, Int), (Int, Int))

    private static let smallBoxes: [Case] = [((50, 50), (50, 25)), ((50, 20), (40, 20)), ((20, 50), (20, 10))]

    /// imgproxy: processing/processing_test.go, TestResizeToFit.
    @Test(arguments: fitted)
    func fitKeepsTheAspectInsideTheBoxWithoutEnlarging(_ box: (Int, Int), _ expected: (Int, Int)) async throws {
        try await check("fit", "", box, expected)
    }

    /// imgproxy: processing/processing_test.go, TestResizeToFitEnlarge.
    @Test(arguments: fitEnlarged)
    func fitWithEnlargeFillsTheBoxsLimitingSide(_ box: (Int, Int), _ expected: (Int, Int)) async throws {
        try await check("fit", "/el:1", box, expected)
    }

    /// imgproxy: processing/processing_test.go, TestResizeToFitExtend.
    @Test(arguments: fitExtended)
    func fitWithExtendIsTheBoxsSize(_ box: (Int, Int), _ expected: (Int, Int)) async throws {
        try await check("fit", "/ex:1", box, expected)
    }

    /// imgproxy: processing/processing_test.go, TestResizeToFitExtendAR.
    @Test(arguments: fitExtendedAspect)
    func fitWithExtendAspectRatioHasTheBoxsShape(_ box: (Int, Int), _ expected: (Int, Int)) async throws {
        try await check("fit", "/exar:1", box, expected)
    }

    private static let fillCommon: [Case] = [((50, 50), (50, 50)), ((50, 20), (50, 20)), ((20, 50), (20, 50))]

    /// imgproxy: processing/processing_test.go, TestResizeToFill (a small source is kept whole,
    /// only what is over the box is cut).
    @Test(arguments: filled)
    func fillCutsOnlyWhatIsOverTheBoxWithoutEnlarging(_ box: (Int, Int), _ expected: (Int, Int)) async throws {
        try await check("fill", "", box, expected)
    }

    private static let enlargedFill: [Case] =
        fillCommon + [
            ((300, 300), (300, 300)), ((300, 125), (300, 125)), ((250, 300), (250, 300)), ((0, 50), (100, 50)),
            ((50, 0), (50, 25)), ((0, 200), (400, 200)), ((300, 0), (300, 150)),
        ]

    /// imgproxy: processing/processing_test.go, TestResizeToFillEnlarge.
    @Test(arguments: enlargedFill)
    func fillWithEnlargeIsTheBoxsSize(_ box: (Int, Int), _ expected: (Int, Int)) async throws {
        try await check("fill", "/el:1", box, expected)
    }

    private static let extendedFill: [Case] =
        fillCommon + [
            ((300, 300), (300, 300)), ((300, 125), (300, 125)), ((250, 300), (250, 300)), ((300, 50), (300, 50)),
            ((100, 300), (100, 300)), ((0, 50), (100, 50)), ((50, 0), (50, 25)), ((0, 200), (200, 200)),
            ((300, 0), (300, 100)),
        ]

    /// imgproxy: processing/processing_test.go, TestResizeToFillExtend.
    @Test(arguments: extendedFill)
    func fillWithExtendIsTheBoxsSize(_ box: (Int, Int), _ expected: (Int, Int)) async throws {
        try await check("fill", "/ex:1", box, expected)
    }

    /// imgproxy: processing/processing_test.go, TestResizeToFillExtendAR.
    @Test(arguments: fillExtendedAspect)
    func fillWithExtendAspectRatioHasTheBoxsShape(_ box: (Int, Int), _ expected: (Int, Int)) async throws {
        try await check("fill", "/exar:1", box, expected)
    }

    private static let fillDown: [Case] =
        fillCommon + [
            ((300, 300), (100, 100)), ((300, 125), (200, 83)), ((250, 300), (83, 100)), ((0, 50), (100, 50)),
            ((50, 0), (50, 25)), ((0, 200), (200, 100)), ((300, 0), (200, 100)),
        ]

    /// imgproxy: processing/processing_test.go, TestResizeToFillDown (a small source is cut to the
    /// box's shape).
    @Test(arguments: fillDown)
    func fillDownCutsASmallSourceToTheBoxsShape(_ box: (Int, Int), _ expected: (Int, Int)) async throws {
        try await check("fill-down", "", box, expected)
    }

    /// imgproxy: processing/processing_test.go, TestResizeToFillDownEnlarge.
    @Test(arguments: enlargedFill)
    func fillDownWithEnlargeIsTheBoxsSize(_ box: (Int, Int), _ expected: (Int, Int)) async throws {
        try await check("fill-down", "/el:1", box, expected)
    }

    /// imgproxy: processing/processing_test.go, TestResizeToFillDownExtend.
    @Test(arguments: extendedFill)
    func fillDownWithExtendIsTheBoxsSize(_ box: (Int, Int), _ expected: (Int, Int)) async throws {
        try await check("fill-down", "/ex:1", box, expected)
    }

    /// imgproxy: processing/processing_test.go, TestResizeToFillDownExtendAR.
    @Test(arguments: fillDown)
    func fillDownWithExtendAspectRatioIsFillDown(_ box: (Int, Int), _ expected: (Int, Int)) async throws {
        try await check("fill-down", "/exar:1", box, expected)
    }

    /// imgproxy: processing/prepare.go's calcScale for `force` (without enlarging, the scale that
    /// would enlarge is brought back to 1 and the other side follows), beside TestResizeToFit.
    @Test(arguments: forced)
    func forceStretchesToTheBoxWithoutEnlarging(_ box: (Int, Int), _ extra: String, _ expected: (Int, Int)) async throws
    {
        try await check("force", extra, box, expected)
    }

    /// imgproxy: processing/prepare.go's calcScale for `auto` (a fill when the source and the box
    /// have one orientation, else a fit).
    @Test(arguments: automatic)
    func autoFillsWhenTheOrientationsAgreeAndFitsOtherwise(_ box: (Int, Int), _ expected: (Int, Int)) async throws {
        try await check("auto", "", box, expected)
    }

    /// imgproxy: processing/prepare.go's calcScale (no side asked for: the source's size), as
    /// TestResultSizeLimit's 0×0 cases.
    @Test(arguments: ["fit", "fill", "fill-down", "force", "auto"])
    func zeroByZeroIsTheSourcesSize(_ type: String) async throws {
        try await check(type, "", (0, 0), (200, 100))
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathResize (the fourth
    /// argument enlarges), TestParsePathSize and TestParsePathEnlarge: three spellings of one
    /// enlarged fill.
    @Test(arguments: [
        "rs:fill:300:300:1", "resize:fill:300:300:1", "rt:fill/s:300:300:1", "rt:fill/size:300:300/el:1",
        "resizing_type:fill/width:300/height:300/enlarge:1",
    ])
    func resizesLongAndShortNamesAgree(_ options: String) async throws {
        #expect(try await Self.size(options) == .init(width: 300, height: 300))
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathWidth and
    /// TestParsePathHeight (one side, the other from the aspect).
    @Test(arguments: [("w:50", 50, 25), ("width:50", 50, 25), ("h:20", 40, 20), ("height:20", 40, 20)])
    func oneSideScalesTheOther(_ options: String, _ width: Int, _ height: Int) async throws {
        #expect(try await Self.size(options) == .init(width: width, height: height))
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathResizingType (`rt` alone
    /// sets the type of a resize given elsewhere).
    @Test func resizingTypeSetsTheTypeOfTheSizeGivenElsewhere() async throws {
        #expect(try await Self.size("s:50:50/resizing_type:fill") == .init(width: 50, height: 50))
        #expect(try await Self.size("s:50:50/rt:fit") == .init(width: 50, height: 25))
    }

    /// imgproxy: processing/prepare.go's calcScale for `min-width` and `min-height` (the scale is
    /// raised until the side is reached), then processing/crop.go's cropToResult (the scaled image
    /// cut to the asked sides: 150×75 cut to a width of 100, or to a height of 25).
    @Test(arguments: [
        ("w:100/mw:150", 100, 75), ("w:100/min-width:150", 100, 75), ("h:25/mh:75", 150, 25),
        ("h:25/min-height:75", 150, 25),
    ])
    func minimumSidesRaiseTheScale(_ options: String, _ width: Int, _ height: Int) async throws {
        #expect(try await Self.size(options) == .init(width: width, height: height))
    }

    /// imgproxy: processing/prepare.go's calcScale for `zoom` (it multiplies the resize's sides,
    /// one factor for both or one each).
    @Test(arguments: [
        ("rs:fit:100:100/z:0.5", 50, 25), ("rs:fit:100:100/zoom:0.5", 50, 25), ("z:0.5", 100, 50),
        ("rs:force:100:100/z:0.5:0.25", 50, 25),
    ])
    func zoomMultipliesTheSides(_ options: String, _ width: Int, _ height: Int) async throws {
        #expect(try await Self.size(options) == .init(width: width, height: height))
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathDpr, and
    /// processing/prepare.go's calcScale (dpr multiplies the result, but never enlarges).
    @Test(arguments: [
        ("rs:fit:50:50/dpr:2", 100, 50), ("rs:fit:150:150/dpr:2", 200, 100), ("dpr:0.5", 100, 50),
        ("rs:fit:50:50/dpr:2/el:1", 100, 50),
    ])
    func dprMultipliesTheResultWithoutEnlarging(_ options: String, _ width: Int, _ height: Int) async throws {
        #expect(try await Self.size(options) == .init(width: width, height: height))
    }
}
