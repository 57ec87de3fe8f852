/// Animated files written byte by byte from the GIF89a and WebP container specifications, for
/// the limit tests: headers that declare more than the server allows, over little data.
enum CraftedAnimation {
    /// One 1×1 frame's LZW data at minimum code size 2: clear (4), index 0, end (5), in 3-bit
    /// codes packed from the low bit, as one sub-block and its terminator.
    static let validPixel: [UInt8] = [0x02, 0x44, 0x01, 0x00]
    /// A sub-block of codes no decoder accepts (7 before any string is defined), and its
    /// terminator: a frame that fails to decode.
    static let garbagePixels: [UInt8] = [0x04, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]

    /// A GIF89a whose logical screen is `width` × `height`, with a 2-colour global table (black,
    /// white), a NETSCAPE2.0 loop, and `frames` 1×1 frames at the top left, each after a graphic
    /// control extension with `delay` hundredths, each of `frameData` (LZW code size 2 first).
    /// With `truncated`, the file ends inside the last frame's data (no trailer).
    static func gif(
        width: Int, height: Int, frames: Int, delay: Int = 10, frameData: [UInt8] = validPixel,
        truncated: Bool = false
    ) -> [UInt8] {
        var bytes = Array("GIF89a".utf8)
        bytes += le16(width) + le16(height) + [0x80, 0x00, 0x00]  // global table of 2 entries
        bytes += [0, 0, 0, 255, 255, 255]
        bytes += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]
        for _ in 0..<frames {
            bytes += [0x21, 0xF9, 0x04, 0x00] + le16(delay) + [0x00, 0x00]
            bytes += [0x2C] + le16(0) + le16(0) + le16(1) + le16(1) + [0x00]
            bytes += [0x02] + frameData
        }
        if truncated { return Array(bytes.dropLast(2)) }
        return bytes + [0x3B]
    }

    /// A RIFF/WEBP file with a `VP8X` chunk (animation flag, `width` × `height` canvas), an `ANIM`
    /// chunk and `frames` `ANMF` chunks, each a frame header and an empty `VP8L` chunk (no image
    /// data at all), the last one declaring `missingBytes` more that the file does not have: it
    /// is cut short there.
    static func webp(width: Int, height: Int, frames: Int, missingBytes: Int = 4096) -> [UInt8] {
        var chunks: [UInt8] = Array("VP8X".utf8) + le32(10) + [0x02, 0, 0, 0] + le24(width - 1) + le24(height - 1)
        chunks += Array("ANIM".utf8) + le32(6) + [0, 0, 0, 0, 0, 0]
        for index in 0..<frames {
            let isLast = index == frames - 1
            chunks += Array("ANMF".utf8) + le32(24 + (isLast ? missingBytes : 0))
            chunks += le24(0) + le24(0) + le24(0) + le24(0) + le24(100) + [0x00]
            chunks += Array("VP8L".utf8) + le32(isLast ? missingBytes : 0)
        }
        return Array("RIFF".utf8) + le32(4 + chunks.count + missingBytes) + Array("WEBP".utf8) + chunks
    }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le24(_ value: Int) -> [UInt8] { le16(value) + [UInt8(value >> 16 & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { le24(value) + [UInt8(value >> 24 & 0xFF)] }
}
