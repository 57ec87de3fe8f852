import Comet
@testable import CometServer
import Foundation
import Testing

@Suite("The {options} grammar of the delivery options")
struct DeliveryOptionGrammarTests {
    @Test(arguments: [
        ("fn:Y2F0:1", "fn:cat"), ("fn:0LrQvtGC:1", "fn:0LrQvtGC:1"), ("att:0", ""), ("return_attachment:t", "att:1"),
        ("mb:0", ""), ("fq:avif:50:jpeg:80", "fq:jpeg:80:avif:50"), ("format_quality:webp:70", "fq:webp:70"),
        ("cachebuster:2024-01_a.b~c", "cb:2024-01_a.b~c"), ("expires:0", ""),
    ])
    func aDeliveryOptionHasOneSpelling(_ segment: String, _ canonical: String) throws {
        #expect(try ThumbnailOptions.parse(segment, maximumDimension: 4096).canonical == canonical)
    }

    @Test func aFilenameIsKeptAsUTF8() throws {
        #expect(try ThumbnailOptions.parse("fn:0LrQvtGC:1", maximumDimension: 4096).filename == "кот")
    }

    @Test func maxBytesGivesTheSmallestResultMadeWhenNoneFits() throws {
        let image = try ImageDecoders.decode(Data(OriginServer.photo)).image
        var encoding = ThumbnailPlan.Encoding()
        let plain = try encoding.encode(image, as: .jpeg)
        encoding.maximumBytes = 1
        let smallest = try encoding.encode(image, as: .jpeg)
        #expect(smallest.count < plain.count / 2)
        // Every step went lower, down to qualities 2 and 1.
        let lowest = try [1, 2].map { try OutputFormat.jpeg.encode(image, quality: $0).count }.min()!
        #expect(smallest.count == lowest)
    }

    @Test func maxBytesKeepsTheHighestQualityFoundThatFits() throws {
        let image = try ImageDecoders.decode(Data(OriginServer.photo)).image
        var encoding = ThumbnailPlan.Encoding()
        let limit = try OutputFormat.jpeg.encode(image, quality: 50).count
        encoding.maximumBytes = limit
        let bounded = try encoding.encode(image, as: .jpeg)
        #expect(bounded.count <= limit)
        // The bisection's precision: within two of quality 50, never above it.
        let sizes = try (47...50).map { try OutputFormat.jpeg.encode(image, quality: $0) }
        #expect(sizes.contains(bounded))
    }
}
