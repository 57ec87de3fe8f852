import Foundation

/// What a GIF or WebP file's container says about its animation, read without decoding any
/// frame: the canvas size and the number of frames.
///
/// GIF: the logical screen's size, and the image descriptors counted by a walk over the blocks
/// (each sub-block chain skipped by its lengths). WebP: the `VP8X` chunk's canvas and animation
/// flag, and the `ANMF` chunks counted over the RIFF chunk list. Every read is checked against
/// the data's end; a block or chunk that runs past it ends the walk, a frame whose header is
/// there counting (so a file cut short still declares what its headers say). Thread-safe (a
/// value).
public struct AnimationHeader: Sendable, Hashable {
    /// The container: `gif` or `webp`.
    public var format: String
    /// The canvas width in pixels.
    public var width: Int
    /// The canvas height in pixels.
    public var height: Int
    /// The frames the file declares (1 for a still WebP).
    public var frameCount: Int

    /// Whether the file has more than one frame.
    public var isAnimated: Bool { frameCount > 1 }

    /// Every frame's pixels together, frames × width × height (saturating).
    public var totalPixels: Int {
        let (canvas, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow else { return .max }
        let (total, overflowTotal) = canvas.multipliedReportingOverflow(by: frameCount)
        return overflowTotal ? .max : total
    }

    /// Creates a header.
    public init(format: String, width: Int, height: Int, frameCount: Int) {
        self.format = format
        self.width = width
        self.height = height
        self.frameCount = frameCount
    }

    /// Reads the header of a GIF or an extended WebP (one with a `VP8X` chunk: every animated
    /// WebP has one); `nil` for any other data (a simple WebP is a still image), or for a header
    /// cut short.
    public init?(_ data: Data) {
        let header = data.withUnsafeBytes { bytes -> AnimationHeader? in
            if bytes.count >= 13, bytes.starts(with: Array("GIF8".utf8)) { return Self.gif(bytes) }
            if bytes.count >= 16, bytes.starts(with: Array("RIFF".utf8)),
                bytes[8..<12].elementsEqual("WEBP".utf8)
            {
                return Self.webp(bytes)
            }
            return nil
        }
        guard let header else { return nil }
        self = header
    }

    /// A GIF: the logical screen, and the image descriptors up to the trailer or the data's end.
    private static func gif(_ bytes: UnsafeRawBufferPointer) -> AnimationHeader {
        let width = Int(bytes[6]) | Int(bytes[7]) << 8
        let height = Int(bytes[8]) | Int(bytes[9]) << 8
        var at = 13
        if bytes[10] & 0x80 != 0 { at += 3 << ((Int(bytes[10]) & 7) + 1) }
        var frames = 0
        walk: while at < bytes.count {
            let introducer = bytes[at]
            at += 1
            switch introducer {
            case 0x2C:  // an image descriptor: 9 bytes, a local colour table, the LZW code size
                guard at + 9 <= bytes.count else { break walk }
                let packed = bytes[at + 8]
                frames += 1
                at += 9
                if packed & 0x80 != 0 { at += 3 << ((Int(packed) & 7) + 1) }
                at += 1
                guard skipSubBlocks(bytes, at: &at) else { break walk }
            case 0x21:  // an extension: its label, then sub-blocks
                at += 1
                guard skipSubBlocks(bytes, at: &at) else { break walk }
            default:  // the trailer, or bytes that are no block
                break walk
            }
        }
        return AnimationHeader(format: "gif", width: width, height: height, frameCount: frames)
    }

    /// Moves `at` past a chain of sub-blocks (length-prefixed, ended by a zero length); `false`
    /// when the chain runs past the data's end.
    private static func skipSubBlocks(_ bytes: UnsafeRawBufferPointer, at: inout Int) -> Bool {
        while at < bytes.count {
            let length = Int(bytes[at])
            at += 1
            if length == 0 { return true }
            at += length
        }
        return false
    }

    /// A WebP: `VP8X`'s canvas when there is one, and the `ANMF` chunks when it is animated.
    private static func webp(_ bytes: UnsafeRawBufferPointer) -> AnimationHeader? {
        func le(_ offset: Int, _ count: Int) -> Int {
            (0..<count).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        // A simple (lossy or lossless) WebP, without VP8X, is one still frame.
        guard bytes.count >= 30, bytes[12..<16].elementsEqual("VP8X".utf8) else { return nil }
        let isAnimated = bytes[20] & 0x02 != 0
        let width = le(24, 3) + 1, height = le(27, 3) + 1
        guard isAnimated else { return AnimationHeader(format: "webp", width: width, height: height, frameCount: 1) }
        var frames = 0
        var at = 12
        while at + 8 <= bytes.count {
            let size = le(at + 4, 4)
            if bytes[at..<(at + 4)].elementsEqual("ANMF".utf8) { frames += 1 }
            // Chunks are padded to an even size; a size past the end ends the walk.
            guard size <= bytes.count - at - 8 else { break }
            at += 8 + size + (size & 1)
        }
        return AnimationHeader(format: "webp", width: width, height: height, frameCount: frames)
    }
}
