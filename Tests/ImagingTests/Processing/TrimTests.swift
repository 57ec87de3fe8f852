import Testing
@testable import Imaging

/// Trimming a uniform border, as imgproxy's `trim` describes it.
@Suite struct TrimTests {
    /// 20×15 of `border` with a red block at columns 5…8 and rows 3…11.
    func framed(_ border: (Int, Int) -> RGBA8) -> Image {
        TestImages.make(width: 20, height: 15) { x, y in
            (5...8).contains(x) && (3...11).contains(y) ? RGBA8(red: 255, green: 0, blue: 0) : border(x, y)
        }
    }

    @Test func theBorderTheCornerStartsIsCutAway() throws {
        let output = try ImageProcessors.Trim().process(framed { _, _ in .white })
        #expect((output.width, output.height) == (4, 9))
        #expect(Set(allPixels(output)) == [RGBA8(red: 255, green: 0, blue: 0)])
    }

    @Test func theThresholdDecidesWhatCountsAsBackground() throws {
        // A border that wavers between 250 and 255.
        let image = framed { x, y in RGBA8(red: 255 - UInt8((x + y) % 6), green: 255, blue: 255) }
        #expect(try ImageProcessors.Trim(threshold: 10).process(image).width == 4)
        #expect(try ImageProcessors.Trim(threshold: 2).process(image).width > 4)
    }

    @Test func aGivenColourIsTrimmedInsteadOfTheCornersColour() throws {
        // White on the left, black on the right; the corner is white.
        let image = TestImages.make(width: 10, height: 4) { x, _ in x < 5 ? .white : .black }
        let auto = try ImageProcessors.Trim().process(image)
        #expect(auto.width == 5 && Set(allPixels(auto)) == [.black])
        let black = try ImageProcessors.Trim(color: .black).process(image)
        #expect(black.width == 5 && Set(allPixels(black)) == [.white])
    }

    @Test func equalHorizontalCutsTakeTheSmallerSide() throws {
        // The block is 5 from the left and 11 from the right: 5 go from each.
        let output = try ImageProcessors.Trim(equalHorizontal: true).process(framed { _, _ in .white })
        #expect((output.width, output.height) == (20 - 2 * 5, 9))
    }

    @Test func equalVerticalCutsTakeTheSmallerSide() throws {
        // A block 2 rows from the top and 4 from the bottom of 12: 2 go from each.
        let image = TestImages.make(width: 6, height: 12) { x, y in
            (1...4).contains(x) && (2...7).contains(y) ? .black : .white
        }
        let output = try ImageProcessors.Trim(equalVertical: true).process(image)
        #expect((output.width, output.height) == (4, 12 - 2 * 2))
    }

    @Test func transparentBordersMatchWhateverColourTheyStore() throws {
        // Fully transparent pixels of every stored colour are all "transparent".
        let image = framed { x, y in RGBA8(red: UInt8(x * 10), green: UInt8(y * 10), blue: 77, alpha: 0) }
        let output = try ImageProcessors.Trim().process(image)
        #expect((output.width, output.height) == (4, 9))
    }

    @Test func theKeptRectangleIsWhereTheTrimCuts() throws {
        // framed: a 20×15 white image with a 4×9 red block at (5, 3).
        let kept = try #require(try ImageProcessors.Trim().keptRectangle(of: framed { _, _ in .white }))
        #expect(kept == (x: 5, y: 3, width: 4, height: 9))
        #expect(try ImageProcessors.Trim().keptRectangle(of: Image(width: 6, height: 6, color: .white)) == nil)
    }

    @Test func anImageThatIsAllBackgroundIsLeftAlone() throws {
        let image = Image(width: 6, height: 6, color: .white)
        #expect(try ImageProcessors.Trim().process(image) == image)
    }

    @Test func thresholdsOutsideTheRangeAreRejected() {
        #expect(throws: ImageProcessingError.self) { try ImageProcessors.Trim(threshold: 256).validate() }
        #expect(throws: ImageProcessingError.self) { try ImageProcessors.Trim(threshold: -1).validate() }
    }
}
