import Comet
import CometServer
import Foundation
import Testing

/// What each effect makes of the resized photo, through the server, against a reference the
/// test computes itself from the same URL without the effect (effects run after the resize, so
/// that is their input). Results are PNG, so the comparison sees the effect alone.
@Suite("Effects through the server", .timeLimit(.minutes(10)))
struct EffectTests {
    let client = HTTPClient()

    /// The resize every effect here follows.
    private static let resize = "rs:fit:160:120"

    /// The result of `options` after the resize, as PNG, in RGBA channels (row by row).
    private func channels(_ options: String) async throws -> (width: Int, height: Int, values: [Double]) {
        let (origin, server) = try await SharedOriginAndServer.get()
        let segment = [Self.resize, options, "f:png"].filter { !$0.isEmpty }.joined(separator: "/")
        let answer = try await client.get(server.url(segment, origin.url("/img/photo.jpg")))
        #expect(answer.status == 200, "\(segment): \(String(decoding: answer.body, as: UTF8.self))")
        let image = try ImageDecoders.decode(Data(answer.body)).image
        var values: [Double] = []
        values.reserveCapacity(image.width * image.height * 4)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x: x, y: y)
                values += [Double(p.red), Double(p.green), Double(p.blue), Double(p.alpha)]
            }
        }
        return (image.width, image.height, values)
    }

    /// The largest difference between the effect's result and `reference` of the plain resize.
    private func largestDifference(
        _ effect: String, reference: (_ width: Int, _ height: Int, _ plain: [Double]) -> [Double]
    ) async throws -> Double {
        let plain = try await channels("")
        let made = try await channels(effect)
        #expect(made.width == plain.width && made.height == plain.height)
        let expected = reference(plain.width, plain.height, plain.values)
        return zip(made.values, expected).map { abs($0 - $1) }.max() ?? .infinity
    }

    private static func clamped(_ value: Double) -> Double { min(255, max(0, value.rounded())) }

    /// `plain` with `transform` applied to each colour channel (alpha kept).
    private static func perChannel(_ plain: [Double], _ transform: (Double) -> Double) -> [Double] {
        plain.enumerated().map { $0.offset % 4 == 3 ? $0.element : clamped(transform($0.element)) }
    }

    /// `plain` convolved with a normalised Gaussian of σ `sigma` over ±3σ along both axes,
    /// edges extended.
    private static func gaussian(_ plain: [Double], width: Int, height: Int, sigma: Double) -> [Double] {
        let reach = Int((3 * sigma).rounded(.up))
        var weights = (-reach...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        weights = weights.map { $0 / total }
        func pass(_ input: [Double], horizontal: Bool) -> [Double] {
            var output = input
            for y in 0..<height {
                for x in 0..<width {
                    for channel in 0..<3 {
                        var sum = 0.0
                        for (index, weight) in weights.enumerated() {
                            let d = index - reach
                            let sx = horizontal ? min(max(x + d, 0), width - 1) : x
                            let sy = horizontal ? y : min(max(y + d, 0), height - 1)
                            sum += weight * input[(sy * width + sx) * 4 + channel]
                        }
                        output[(y * width + x) * 4 + channel] = sum
                    }
                }
            }
            return output
        }
        return pass(pass(plain, horizontal: true), horizontal: false)
    }

    @Test func grayscaleIsTheBT601Luma() async throws {
        let difference = try await largestDifference("grayscale:1") { _, _, plain in
            var expected = plain
            for pixel in stride(from: 0, to: plain.count, by: 4) {
                let luma = Self.clamped(0.299 * plain[pixel] + 0.587 * plain[pixel + 1] + 0.114 * plain[pixel + 2])
                expected[pixel] = luma
                expected[pixel + 1] = luma
                expected[pixel + 2] = luma
            }
            return expected
        }
        #expect(difference <= 1)
    }

    @Test func brightnessAddsItsPercentageOfFullScale() async throws {
        let difference = try await largestDifference("brightness:40") { _, _, plain in
            Self.perChannel(plain) { $0 + 102 }
        }
        #expect(difference <= 1)
    }

    @Test func contrastScalesChannelsAroundMidGrey() async throws {
        let c = -30.0 * 255 / 100
        let factor = 259 * (c + 255) / (255 * (259 - c))
        let difference = try await largestDifference("contrast:-30") { _, _, plain in
            Self.perChannel(plain) { factor * ($0 - 128) + 128 }
        }
        #expect(difference <= 1)
    }

    @Test func pixelateAveragesSquaresFromTheTopLeft() async throws {
        let difference = try await largestDifference("pix:8") { width, height, plain in
            var expected = plain
            for top in stride(from: 0, to: height, by: 8) {
                for left in stride(from: 0, to: width, by: 8) {
                    let rows = top..<min(top + 8, height)
                    let columns = left..<min(left + 8, width)
                    for channel in 0..<3 {
                        var sum = 0.0
                        for y in rows { for x in columns { sum += plain[(y * width + x) * 4 + channel] } }
                        let mean = Self.clamped(sum / Double(rows.count * columns.count))
                        for y in rows { for x in columns { expected[(y * width + x) * 4 + channel] = mean } }
                    }
                }
            }
            return expected
        }
        #expect(difference <= 1)
    }

    @Test func blurIsCloseToATrueGaussianOfTheSameSigma() async throws {
        // GaussianBlur is three box blurs: a few levels from the true Gaussian where the photo's
        // blue channel wraps from 255 to 0.
        let difference = try await largestDifference("bl:2") { width, height, plain in
            Self.gaussian(plain, width: width, height: height, sigma: 2).map { Self.clamped($0) }
        }
        #expect(difference <= 12)
    }

    @Test func sharpenIsAnUnsharpMaskOfAGaussian() async throws {
        let difference = try await largestDifference("sh:1") { width, height, plain in
            let blurred = Self.gaussian(plain, width: width, height: height, sigma: 1)
            return plain.enumerated().map { index, value in
                index % 4 == 3 ? value : Self.clamped(value + (value - blurred[index]))
            }
        }
        #expect(difference <= 2)
    }

    @Test func anEffectDoesNotChangeTheResultsSize() async throws {
        let plain = try await channels("")
        let blurred = try await channels("bl:3/sh:0.5/pix:4/grayscale:1/brightness:-10/contrast:20")
        #expect(blurred.width == 160 && blurred.height == 120 && plain.width == 160)
    }
}
