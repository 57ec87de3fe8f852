import CometTestSupport
import Foundation
import Testing
@testable import Imaging

/// The smart-crop measurement: on real photos whose subject is off-centre, the crop ``Gravity``
/// `.smart` picks keeps the subject's hand-marked box in more cases than a centred crop.
///
/// The set, with each box and its provenance, is `Fixtures/smart-crop/subjects.txt`; the photos
/// come from the test corpus. Run with
/// `swift test --filter SmartCropMeasurementTests` (the figure is printed, one line per photo).
@Suite(.requiresCorpus("png-real", "sharp-photos", "webp", "avif"))
struct SmartCropMeasurementTests {
    /// One photo of the set: where it is, the crop's shape, and the subject's box in fractions.
    struct Case: CustomStringConvertible {
        var file: String
        var aspect: (width: Double, height: Double)
        var box: (left: Double, top: Double, right: Double, bottom: Double)
        var subject: String

        var description: String { "\(file) (\(subject))" }
    }

    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/smart-crop/subjects.txt")

    static func cases() throws -> [Case] {
        try String(contentsOf: fixture, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), !line.allSatisfy(\.isWhitespace) else { return nil }
            let fields = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let ratio = fields.count >= 4 ? fields[1].split(separator: ":").compactMap { Double($0) } : []
            let box = fields.count >= 4 ? fields[2].split(separator: " ").compactMap { Double($0) } : []
            guard ratio.count == 2, box.count == 4 else {
                throw ImageProcessingError(processor: "fixture", reason: "malformed line: \(line)")
            }
            return Case(
                file: fields[0], aspect: (ratio[0], ratio[1]), box: (box[0], box[1], box[2], box[3]),
                subject: fields[3])
        }
    }

    /// Whether the crop `gravity` places, of the largest region of the case's shape, holds the
    /// whole box.
    func keeps(_ gravity: ImageProcessors.Gravity, _ image: Image, _ c: Case) -> Bool {
        let (w, h) = (Double(image.width), Double(image.height))
        let wide = w / h > c.aspect.width / c.aspect.height
        let size =
            wide
            ? (Int(h * c.aspect.width / c.aspect.height), image.height)
            : (image.width, Int(w * c.aspect.height / c.aspect.width))
        let (left, top, right, bottom) = ImageProcessors.Crop(width: size.0, height: size.1, gravity: gravity).bounds(
            in: image)
        return Double(left) <= c.box.left * w && Double(right) >= c.box.right * w
            && Double(top) <= c.box.top * h && Double(bottom) >= c.box.bottom * h
    }

    @Test func theSetIsWellFormed() throws {
        let cases = try Self.cases()
        #expect(cases.count >= 10)
        for c in cases {
            #expect(
                c.box.left < c.box.right && c.box.top < c.box.bottom && c.box.left >= 0 && c.box.bottom <= 1, "\(c)")
        }
    }

    @Test func smartGravityKeepsTheSubjectMoreOftenThanTheCentre() throws {
        var (smart, centre) = (0, 0)
        let cases = try Self.cases()
        for c in cases {
            let image = try ImageDecoderRegistry.default.decode(TestCorpus.current.data(c.file)).image
            let (s, m) = (keeps(.smart, image, c), keeps(.center, image, c))
            smart += s ? 1 : 0
            centre += m ? 1 : 0
            print(
                "smart crop \(c.aspect.width):\(c.aspect.height) of \(c): smart \(s ? "keeps" : "misses"), centre \(m ? "keeps" : "misses")"
            )
        }
        print(
            "smart crop measurement: smart gravity keeps the subject in \(smart) of \(cases.count), centre gravity in \(centre) of \(cases.count)"
        )
        #expect(smart > centre)
    }
}
