import Foundation
import Testing

@testable import Imaging

/// The transform cache: bounded, shared by concurrent decodes, and never mixing up two profiles.
/// Serialized: the eviction test would otherwise evict what the reuse test watches.
@Suite(.serialized)
struct ColorTransformCacheTests {
    /// PNGs of one gradient, each tagged with its own profile (primaries nudged apart, so each
    /// profile is a distinct description that converts differently).
    static let tagged: [Data] = (0..<(ColorTransformCache.capacity + 8)).map { index in
        let shift = Double(index) * 0.002
        let profile = ColorProfile.build(
            chromaticities: [0.3127, 0.3290, 0.66 + shift, 0.32, 0.27, 0.67 - shift, 0.15, 0.06],
            name: "Test \(index)")
        var bytes = [UInt8]()
        for y in 0..<16 {
            for x in 0..<16 { bytes += [UInt8(x * 16), UInt8(y * 16), UInt8(255 - x * 8), 255] }
        }
        let image = Image(width: 16, height: 16, isOpaque: true, bytes: bytes).withColorProfile(profile)
        return try! ImageEncoders.png(image)
    }

    @Test func aProfileBuildsOneTransformThatLaterDecodesReuse() throws {
        let profile = ColorProfile.build(
            chromaticities: [0.3127, 0.3290, 0.70, 0.29, 0.21, 0.71, 0.15, 0.06], name: "Reused")
        let first = try #require(ColorTransformCache.transform(for: profile))
        let tagged = try ImageEncoders.png(
            Image(width: 8, height: 8, color: RGBA8(red: 200, green: 40, blue: 90)).withColorProfile(profile))
        for _ in 0..<5 { _ = try PNGDecoder().decode(tagged) }
        let again = try #require(ColorTransformCache.transform(for: profile))
        #expect(first.pointer == again.pointer, "the cached transform is handed out again")
    }

    @Test func holdsAtMostItsCapacity() throws {
        for data in Self.tagged { _ = try PNGDecoder().decode(data) }
        #expect(ColorTransformCache.count <= ColorTransformCache.capacity)
    }

    @Test func concurrentDecodesGiveWhatOneDecodeGives() async throws {
        let expected = try Self.tagged.map { try PNGDecoder().decode($0).image }
        // Distinct profiles convert differently: a mixed-up transform would show.
        #expect(Set(expected.map(\.packedBytes)).count == expected.count)
        try await withThrowingTaskGroup(of: (Int, Image).self) { group in
            for round in 0..<4 {
                for index in Self.tagged.indices {
                    let data = Self.tagged[(index + round * 7) % Self.tagged.count]
                    let position = (index + round * 7) % Self.tagged.count
                    group.addTask { (position, try PNGDecoder().decode(data).image) }
                }
            }
            for try await (index, image) in group { #expect(image == expected[index]) }
        }
        #expect(ColorTransformCache.count <= ColorTransformCache.capacity)
    }
}

/// Profiles are input: a hostile one converts with Little CMS or not at all, never out of bounds.
struct HostileProfileTests {
    /// A curve that leaves 0...1 (Y = (2X)^2.4 reaches 5.3): the fast path's tables would
    /// overflow their output table (found by the JPEG fuzzer with a mutated profile).
    @Test func aCurveBeyondOneConvertsWithoutOverrunning() throws {
        let profile = ColorProfile.build(
            chromaticities: [0.3127, 0.3290, 0.68, 0.32, 0.265, 0.69, 0.15, 0.06],
            curve: [2.4, 2, 0, 1 / 12.92, 0.04045],
            name: "Hostile")
        var bytes = [UInt8]()
        for value in 0..<256 { bytes += [UInt8(value), UInt8(255 - value), UInt8(value / 2), 255] }
        let data = try ImageEncoders.png(
            Image(width: 16, height: 16, isOpaque: true, bytes: bytes).withColorProfile(profile))
        let decoded = try PNGDecoder().decode(data)
        guard case .converted = decoded.colorHandling else {
            Issue.record("\(decoded.colorHandling)")
            return
        }
        #expect(decoded.image.packedBytes.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
    }
}
