import Foundation

/// Writes small GIFs for tests, with every feature a frame can have (position, local palette,
/// transparency, disposal, delay, interlacing). Pixels are stored with 8-bit LZW codes and a
/// clear code every 100 pixels, so no compression is needed: each code is one byte.
public struct GIFWriter {
    public struct Frame {
        public var left = 0, top = 0, width: Int, height: Int
        /// Palette indices (0..<128), row by row.
        public var indices: [UInt8]
        /// Up to 128 colours; `nil` uses the global palette.
        public var localPalette: [(UInt8, UInt8, UInt8)]? = nil
        public var transparentIndex: UInt8? = nil
        public var disposal: UInt8 = 0
        public var delay: UInt16 = 10
        public var interlaced = false

        public init(
            left: Int = 0, top: Int = 0, width: Int, height: Int, indices: [UInt8],
            localPalette: [(UInt8, UInt8, UInt8)]? = nil, transparentIndex: UInt8? = nil,
            disposal: UInt8 = 0, delay: UInt16 = 10, interlaced: Bool = false
        ) {
            self.left = left; self.top = top; self.width = width; self.height = height
            self.indices = indices; self.localPalette = localPalette; self.transparentIndex = transparentIndex
            self.disposal = disposal; self.delay = delay; self.interlaced = interlaced
        }
    }

    public var width: Int, height: Int
    public var globalPalette: [(UInt8, UInt8, UInt8)]
    public var loopCount: UInt16?
    public var frames: [Frame]

    public init(
        width: Int, height: Int, globalPalette: [(UInt8, UInt8, UInt8)], loopCount: UInt16? = nil, frames: [Frame] = []
    ) {
        self.width = width; self.height = height; self.globalPalette = globalPalette
        self.loopCount = loopCount; self.frames = frames
    }

    /// The file's bytes.
    public var data: Data {
        var out: [UInt8] = Array("GIF89a".utf8)
        out += le16(width) + le16(height) + [0xF6, 0, 0]  // global table of 128 colours
        out += palette(globalPalette)
        if let loopCount {
            out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + le16(Int(loopCount)) + [0]
        }
        for frame in frames {
            let packed = frame.disposal << 2 | (frame.transparentIndex != nil ? 1 : 0)
            out += [0x21, 0xF9, 4, packed] + le16(Int(frame.delay)) + [frame.transparentIndex ?? 0, 0]
            var flags: UInt8 = frame.interlaced ? 0x40 : 0
            if frame.localPalette != nil { flags |= 0x86 }
            out += [0x2C] + le16(frame.left) + le16(frame.top) + le16(frame.width) + le16(frame.height) + [flags]
            if let local = frame.localPalette { out += palette(local) }
            out += [7] + subBlocks(codes(rowsInFileOrder(frame)))
        }
        out.append(0x3B)
        return Data(out)
    }

    private func rowsInFileOrder(_ frame: Frame) -> [UInt8] {
        guard frame.interlaced else { return frame.indices }
        var order: [Int] = []
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            order += Array(stride(from: start, to: frame.height, by: step))
        }
        return order.flatMap { row in frame.indices[(row * frame.width)..<((row + 1) * frame.width)] }
    }

    private func codes(_ indices: [UInt8]) -> [UInt8] {
        var codes: [UInt8] = []
        for (i, index) in indices.enumerated() {
            if i % 100 == 0 { codes.append(128) }  // clear
            codes.append(index)
        }
        codes.append(129)  // end of information
        return codes
    }

    private func subBlocks(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var at = 0
        while at < bytes.count {
            let n = min(255, bytes.count - at)
            out += [UInt8(n)] + bytes[at..<(at + n)]
            at += n
        }
        return out + [0]
    }

    private func palette(_ colours: [(UInt8, UInt8, UInt8)]) -> [UInt8] {
        var out: [UInt8] = []
        for i in 0..<128 {
            let c = i < colours.count ? colours[i] : (0, 0, 0)
            out += [c.0, c.1, c.2]
        }
        return out
    }

    private func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
}
