import CometTestSupport
import Foundation
@testable import Imaging

extension HEICJXLFixtures {
    /// A reference decode as an ``Image`` (opaque unless it is a PAM with alpha).
    func image(_ name: String) throws -> Image {
        let (width, height, rgba) = try pixels(name)
        let isOpaque = stride(from: 3, to: rgba.count, by: 4).allSatisfy { rgba[$0] == 255 }
        return Image(width: width, height: height, isOpaque: isOpaque, bytes: rgba)
    }

    /// The largest difference of any channel, alpha included, between a decode and a reference.
    func largestDifference(_ image: Image, _ name: String) throws -> Int {
        let expected = try pixels(name)
        guard image.width == expected.width && image.height == expected.height else { return Int.max }
        return zip(image.packedBytes, expected.rgba).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }
}
