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
    /// A curve that leaves 0...1 (Y = (2X)^2.4 reaches 5.3): taken as it is, it would make sums
    /// past the fast path's output table.
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

extension HostileProfileTests {
    /// A tagged PNG whose image data is interrupted by another chunk: libpng's progressive reader
    /// announces the image a second time at the second IDAT; the profile is resolved once, so
    /// nothing leaks (`make asan` runs this test under LeakSanitizer).
    @Test func imageDataInterruptedByAChunkDecodesOnce() throws {
        let image = Image(width: 32, height: 32, color: RGBA8(red: 200, green: 30, blue: 60)).withColorProfile(
            .displayP3)
        let png = [UInt8](try ImageEncoders.png(image))
        var chunks: [(type: String, data: [UInt8])] = []
        var at = 8
        while at + 12 <= png.count {
            let length = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            chunks.append(
                (String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self), Array(png[(at + 8)..<(at + 8 + length)])))
            at += 12 + length
        }
        var rebuilt = Array(png[0..<8])
        for chunk in chunks {
            guard chunk.type == "IDAT" else {
                rebuilt += Self.chunk(chunk.type, chunk.data)
                continue
            }
            let half = chunk.data.count / 2
            rebuilt +=
                Self.chunk("IDAT", Array(chunk.data[..<half])) + Self.chunk("tEXt", Array("a\u{0}b".utf8))
                + Self.chunk("IDAT", Array(chunk.data[half...]))
        }
        for _ in 0..<3 {
            do {
                let decoded = try PNGDecoder().decode(Data(rebuilt))
                #expect(decoded.colorHandling == .converted(from: "Display P3"))
            } catch {
                #expect(error.localizedDescription.isEmpty == false)
            }
        }
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc = ~crc
        let length = UInt32(data.count)
        return [24, 16, 8, 0].map { UInt8(length >> $0 & 0xFF) } + body
            + [24, 16, 8, 0].map { UInt8(crc >> $0 & 0xFF) }
    }
}
