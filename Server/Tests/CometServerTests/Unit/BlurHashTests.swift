import Comet
@testable import CometServer
import Testing

/// The BlurHash encoder against hashes made by an independent implementation: the `blurhash`
/// package of PyPI (1.1.5, Python, `blurhash.encode(pixels, x, y)`), run on the same synthetic
/// images, which these tests and that run both build from the formulas below. The structure
/// checks follow the algorithm's description (woltapp/blurhash, `Algorithm.md`).
@Suite("BlurHash")
struct BlurHashTests {
    /// `width` × `height`, red rising left to right, green top to bottom, blue `x·y·7 mod 256`.
    private static func gradient(_ width: Int, _ height: Int) -> Image {
        Image(width: width, height: height, isOpaque: true) { pixels, bytesPerRow in
            for y in 0..<height {
                for x in 0..<width {
                    let offset = y * bytesPerRow + x * 4
                    pixels[offset] = UInt8(x * 255 / (width - 1))
                    pixels[offset + 1] = UInt8(y * 255 / (height - 1))
                    pixels[offset + 2] = UInt8(x * y * 7 % 256)
                    pixels[offset + 3] = 255
                }
            }
        }
    }

    /// 4-pixel squares alternating white and (0, 64, 160).
    private static func checker(_ width: Int, _ height: Int) -> Image {
        Image(width: width, height: height, isOpaque: true) { pixels, bytesPerRow in
            for y in 0..<height {
                for x in 0..<width {
                    let offset = y * bytesPerRow + x * 4
                    let white = (x / 4 + y / 4) % 2 == 0
                    pixels[offset] = white ? 255 : 0
                    pixels[offset + 1] = white ? 255 : 64
                    pixels[offset + 2] = white ? 255 : 160
                    pixels[offset + 3] = 255
                }
            }
        }
    }

    @Test(arguments: [
        (4, 3, "L$HewW2owuX4l_WBjse.gGfhfPfi"),
        (5, 2, "D$HewW2owuX4a_l_WBjse.fP"),
        (1, 1, "00HewW"),
        (
            9, 9,
            "|$HewW2owuX4a_ocWmoeWnl_WBjse.fPe:fPe:fRgGfhfPfifRfifRfkfRn%WojsfRfRfRfRfRfSe-fPfRfQfRfSfRfQfPocWojtfRfRfPfRfPfR"
                + "eofPfSfQfSfQfRfRfPovWnjvfPfRfQfRfPfPepfRfRfRfRfRfPfOfO"
        ),
    ])
    func aGradientHashesAsTheReferenceDoes(x: Int, y: Int, expected: String) {
        #expect(BlurHash.encode(Self.gradient(32, 24), xComponents: x, yComponents: y) == expected)
    }

    @Test func aCheckerboardAndAFlatColourHashAsTheReferenceDoes() {
        #expect(BlurHash.encode(Self.checker(20, 12)) == "LKMHWE-=?a-=?coffQof_2fQ~ofQ")
        let flat = Image(width: 8, height: 8, color: RGBA8(red: 200, green: 100, blue: 50))
        #expect(BlurHash.encode(flat) == "LNM|T9}XfQ}X}XsofQsofQfQfQfQ")
    }

    /// The parts `Algorithm.md` describes: the size flag, then 4 digits of the average colour in
    /// sRGB (exact for a flat image), then 2 digits per AC component.
    @Test func theHashHasTheDescribedStructure() {
        let hash = Array(BlurHash.encode(Self.gradient(32, 24), xComponents: 7, yComponents: 2).utf8)
        #expect(hash.count == 4 + 2 * 14)
        #expect(Self.value(hash[0..<1]) == (7 - 1) + (2 - 1) * 9)
        let flat = Array(
            BlurHash.encode(
                Image(width: 5, height: 3, color: RGBA8(red: 12, green: 200, blue: 99)), xComponents: 1,
                yComponents: 1
            ).utf8)
        #expect(flat.count == 6)
        #expect(Self.value(flat[2..<6]) == 12 << 16 | 200 << 8 | 99)
    }

    @Test func base83WritesBigEndianDigits() {
        var output: [UInt8] = []
        BlurHash.appendBase83(83 * 83 + 2 * 83 + 82, digits: 3, to: &output)
        #expect(String(decoding: output, as: UTF8.self) == "12~")
        #expect(BlurHash.alphabet.count == 83)
        #expect(Set(BlurHash.alphabet).count == 83)
    }

    /// The base-83 value of `digits`.
    private static func value(_ digits: ArraySlice<UInt8>) -> Int {
        digits.reduce(0) { $0 * 83 + BlurHash.alphabet.firstIndex(of: $1)! }
    }
}
