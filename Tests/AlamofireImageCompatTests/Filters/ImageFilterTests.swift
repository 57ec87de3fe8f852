import AlamofireImageCompat
import CometTestSupport
import Foundation
import Testing

@Suite("Image filters", .timeLimit(.minutes(10)))
struct ImageFilterTests {
    let size = CGSize(width: 100.4, height: 49.6)

    @Test func identifiersMatchAlamofireImageByteForByte() {
        #expect(ScaledToSizeFilter(size: size).identifier == "ScaledToSizeFilter-size:(100x50)")
        #expect(AspectScaledToFitSizeFilter(size: size).identifier == "AspectScaledToFitSizeFilter-size:(100x50)")
        #expect(AspectScaledToFillSizeFilter(size: size).identifier == "AspectScaledToFillSizeFilter-size:(100x50)")
        #expect(RoundedCornersFilter(radius: 12.5).identifier == "RoundedCornersFilter-radius:(13)-divided:(false)")
        #expect(
            RoundedCornersFilter(radius: 4, divideRadiusByImageScale: true).identifier
                == "RoundedCornersFilter-radius:(4)-divided:(true)")
        #expect(CircleFilter().identifier == "CircleFilter")
        #expect(BlurFilter(blurRadius: 3).identifier == "BlurFilter-radius:(3)")
        #expect(BlurFilter().identifier == "BlurFilter-radius:(10)")
    }

    @Test func compositeIdentifiersJoinTheirFiltersWithUnderscores() {
        let square = CGSize(width: 100, height: 100)
        #expect(
            ScaledToSizeWithRoundedCornersFilter(size: square, radius: 10).identifier
                == "ScaledToSizeFilter-size:(100x100)_RoundedCornersFilter-radius:(10)-divided:(false)")
        #expect(
            AspectScaledToFillSizeWithRoundedCornersFilter(size: square, radius: 10).identifier
                == "AspectScaledToFillSizeFilter-size:(100x100)_RoundedCornersFilter-radius:(10)-divided:(false)")
        #expect(ScaledToSizeCircleFilter(size: square).identifier == "ScaledToSizeFilter-size:(100x100)_CircleFilter")
        #expect(
            AspectScaledToFillSizeCircleFilter(size: square).identifier
                == "AspectScaledToFillSizeFilter-size:(100x100)_CircleFilter")
        #expect(
            DynamicCompositeImageFilter(CircleFilter(), BlurFilter()).identifier
                == "CircleFilter_BlurFilter-radius:(10)")
    }

    @Test func customFiltersGetTheTypeNameAndSizableOrRoundableSuffixes() {
        #expect(Sepia().identifier == "Sepia")
        #expect(Thumbnail(size: CGSize(width: 64, height: 32)).identifier == "Thumbnail-size:(64x32)")
        #expect(Pill(radius: 7.4).identifier == "Pill-radius:(7)")
        #expect(DynamicImageFilter("my-id") { $0 }.identifier == "my-id")
    }

    @Test func scaledToSizeIgnoresTheAspectRatio() {
        let out = ScaledToSizeFilter(size: CGSize(width: 30, height: 90)).filter(
            TestImages.image(width: 60, height: 40))
        #expect(out.width == 30 && out.height == 90)
    }

    @Test func aspectFitCentresTheScaledImageOnATransparentCanvas() {
        // 60×40 into 30×30: scale 0.5 → 30×20, centred with 5 transparent rows above and below.
        let out = AspectScaledToFitSizeFilter(size: CGSize(width: 30, height: 30)).filter(
            TestImages.image(width: 60, height: 40))
        #expect(out.width == 30 && out.height == 30)
        #expect(out.pixel(x: 15, y: 2).alpha == 0 && out.pixel(x: 15, y: 27).alpha == 0)
        #expect(out.pixel(x: 15, y: 15).alpha == 255)
    }

    @Test func aspectFillCoversTheTargetAndClips() {
        let out = AspectScaledToFillSizeFilter(size: CGSize(width: 30, height: 30)).filter(
            TestImages.image(width: 60, height: 40))
        #expect(out.width == 30 && out.height == 30)
        #expect(out.pixel(x: 0, y: 0).alpha == 255 && out.pixel(x: 29, y: 29).alpha == 255)
    }

    @Test func circleKeepsTheCentredSquareAndClearsTheCorners() {
        let out = CircleFilter().filter(TestImages.image(width: 60, height: 40))
        #expect(out.width == 40 && out.height == 40)
        #expect(out.pixel(x: 0, y: 0).alpha == 0 && out.pixel(x: 20, y: 20).alpha == 255)
    }

    @Test func roundedCornersClearTheCornersAndKeepTheSize() {
        let out = RoundedCornersFilter(radius: 10).filter(TestImages.image(width: 60, height: 40))
        #expect(out.width == 60 && out.height == 40)
        #expect(out.pixel(x: 0, y: 0).alpha == 0 && out.pixel(x: 30, y: 20).alpha == 255)
    }

    @Test func blurKeepsTheSizeAndChangesPixels() {
        let image = TestImages.image(width: 60, height: 40)
        let out = BlurFilter(blurRadius: 4).filter(image)
        #expect(out.width == 60 && out.height == 40)
        #expect(out != image)
    }

    @Test func blurOfAnOpaqueImageHasNoTransparentFringe() {
        let out = BlurFilter(blurRadius: 8).filter(TestImages.image(width: 60, height: 40))
        for (x, y) in [(0, 0), (59, 0), (0, 39), (59, 39), (30, 0)] {
            #expect(out.pixel(x: x, y: y).alpha == 255, "pixel (\(x), \(y)) stays opaque")
        }
    }

    @Test func blurFiltersOfDifferentRadiiHaveDifferentIdentifiers() {
        #expect(BlurFilter(blurRadius: 2).identifier != BlurFilter(blurRadius: 20).identifier)
        #expect(BlurFilter(blurRadius: 8).identifier == BlurFilter(blurRadius: 8).identifier)
    }

    @Test func compositeFiltersApplyInOrder() {
        let out = AspectScaledToFillSizeCircleFilter(size: CGSize(width: 24, height: 24)).filter(
            TestImages.image(width: 60, height: 40))
        #expect(out.width == 24 && out.height == 24 && out.pixel(x: 0, y: 0).alpha == 0)
        let scaled = ScaledToSizeWithRoundedCornersFilter(size: CGSize(width: 50, height: 20), radius: 5).filter(
            TestImages.image())
        #expect(scaled.width == 50 && scaled.height == 20 && scaled.pixel(x: 0, y: 0).alpha == 0)
    }
}

private struct Sepia: ImageFilter {
    var filter: (Image) -> Image { { $0 } }
}

private struct Thumbnail: ImageFilter, Sizable {
    let size: CGSize
    var filter: (Image) -> Image { { $0 } }
}

private struct Pill: ImageFilter, Roundable {
    let radius: CGFloat
    var filter: (Image) -> Image { { $0 } }
}
