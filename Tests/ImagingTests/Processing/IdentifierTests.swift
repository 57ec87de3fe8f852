import Foundation
import Testing
@testable import Imaging

/// Identifiers (disk-cache keys) and hashable identifiers (memory-cache keys).
@Suite struct IdentifierTests {
    @Test func resizeIdentifierListsEveryParameter() {
        #expect(
            ImageProcessors.Resize(size: Size(width: 256, height: 256), contentMode: .aspectFill).identifier
                == "com.comet.resize?width=256&height=256&contentMode=aspectFill&crop=false&upscale=false&filter=lanczos3"
        )
        #expect(
            ImageProcessors.Resize(width: 100, filter: .areaAverage).identifier
                == "com.comet.resize?width=100&contentMode=aspectFit&crop=false&upscale=false&filter=areaAverage")
    }

    @Test func otherIdentifiersAreStable() {
        #expect(ImageProcessors.RoundedCorners(radius: 8).identifier == "com.comet.roundedCorners?radius=8")
        #expect(
            ImageProcessors.RoundedCorners(radius: 2.5, border: .init(color: .white, width: 2)).identifier
                == "com.comet.roundedCorners?radius=2.5&border=%23ffffffff,2")
        #expect(ImageProcessors.Circle().identifier == "com.comet.circle")
        #expect(ImageProcessors.GaussianBlur(radius: 8).identifier == "com.comet.gaussianBlur?radius=8")
        #expect(
            ImageProcessors.Crop(x: 1, y: 2, width: 3, height: 4).identifier
                == "com.comet.crop?x=1&y=2&width=3&height=4")
        #expect(
            ImageProcessors.Canvas(size: Size(width: 5, height: 6)).identifier == "com.comet.canvas?width=5&height=6")
    }

    @Test func equalProcessorsHaveEqualIdentifiers() {
        let pairs: [(any ImageProcessing, any ImageProcessing)] = [
            (
                ImageProcessors.Resize(size: Size(width: 256, height: 256)),
                .resize(size: CGSize(width: 256, height: 256))
            ),
            (
                ImageProcessors.Resize(size: Size(width: 128, height: 128), unit: .points(scale: 2)),
                .resize(size: Size(width: 256, height: 256))
            ),
            (
                ImageProcessors.Resize(size: Size(width: 9, height: 9), contentMode: .aspectFit, crop: true),
                .resize(size: Size(width: 9, height: 9), contentMode: .aspectFit)
            ),  // crop means nothing for fit
            (ImageProcessors.GaussianBlur(), .gaussianBlur(radius: 8)),
            (
                ImageProcessors.RoundedCorners(radius: 4, border: .init(color: .black, width: 0)),
                .roundedCorners(radius: 4)
            ),
            (ImageProcessors.Anonymous(id: "x") { $0 }, ImageProcessors.Anonymous(id: "x") { $0 }),
            (ImageProcessors.Composition([.circle()]), .circle()),
        ]
        for (a, b) in pairs {
            #expect(a.identifier == b.identifier)
            #expect(a.hashableIdentifier == b.hashableIdentifier, "\(a.identifier)")
        }
    }

    @Test func differentParametersGiveDifferentIdentifiers() {
        let processors: [any ImageProcessing] = [
            .resize(size: Size(width: 256, height: 256)),
            .resize(size: Size(width: 256, height: 255)),
            .resize(size: Size(width: 256, height: 256), contentMode: .aspectFit),
            .resize(size: Size(width: 256, height: 256), contentMode: .stretch),
            .resize(size: Size(width: 256, height: 256), crop: true),
            .resize(size: Size(width: 256, height: 256), upscale: true),
            .resize(width: 256), .resize(height: 256),
            .roundedCorners(radius: 8), .roundedCorners(radius: 8.5),
            .roundedCorners(radius: 8, border: .init(color: .white, width: 1)),
            .roundedCorners(radius: 8, border: .init(color: .black, width: 1)),
            .circle(), .circle(border: .init(color: .white, width: 1)),
            .gaussianBlur(radius: 8), .gaussianBlur(radius: 2),
            .crop(x: 0, y: 0, width: 1, height: 1), .crop(x: 1, y: 0, width: 1, height: 1),
            .canvas(size: Size(width: 3, height: 3)),
            ImageProcessors.Composition([.circle(), .gaussianBlur()]),
            ImageProcessors.Composition([.gaussianBlur(), .circle()]),
        ]
        #expect(Set(processors.map(\.identifier)).count == processors.count)
        #expect(Set(processors.map(\.hashableIdentifier)).count == processors.count)
    }

    @Test func compositionIdentifierJoinsItsPartsAndFlattens() {
        let nested = ImageProcessors.Composition([
            .resize(width: 10), ImageProcessors.Composition([.circle(), .gaussianBlur()]),
        ])
        let flat = ImageProcessors.Composition([.resize(width: 10), .circle(), .gaussianBlur()])
        #expect(nested.identifier == flat.identifier)
        #expect(nested.hashableIdentifier == flat.hashableIdentifier)
        #expect(
            flat.identifier
                == "com.comet.resize?width=10&contentMode=aspectFit&crop=false&upscale=false&filter=lanczos3|com.comet.circle|com.comet.gaussianBlur?radius=8"
        )
    }

    @Test func compositionAppliesInOrder() throws {
        let image = Image(width: 100, height: 50, color: .white)
        // Circle then resize: a 100×100 → 50×50 circle... vs resize then circle: 40×20 → 20×20.
        let circleFirst = try ImageProcessors.Composition([.circle(), .resize(width: 40)]).process(image)
        let resizeFirst = try ImageProcessors.Composition([.resize(width: 40), .circle()]).process(image)
        #expect((circleFirst.width, circleFirst.height) == (40, 40))
        #expect((resizeFirst.width, resizeFirst.height) == (20, 20))
        let log = try ImageProcessors.Composition([
            .process(id: "a") { Image(width: $0.width + 1, height: 1, color: .black) },
            .process(id: "b") { Image(width: $0.width * 10, height: 1, color: .black) },
        ]).process(image)
        #expect(log.width == 1010)
    }

    @Test func anonymousProcessorErrorsPropagate() {
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try ImageProcessors.Anonymous(id: "fails") { _ in throw Failure() }.process(
                Image(width: 1, height: 1, color: .white))
        }
    }

    @Test func factoriesWorkInArrayLiterals() {
        let processors: [any ImageProcessing] = [
            .resize(width: 256), .resize(size: CGSize(width: 256, height: 256), contentMode: .aspectFill),
            .circle(), .roundedCorners(radius: 8), .gaussianBlur(radius: 8),
        ]
        #expect(processors.count == 5)
    }
}
