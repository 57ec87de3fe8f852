import Foundation
import Testing

@testable import Imaging

/// HEIC and AVIF share ISO BMFF and HEIF's generic brands: the major brand decides, and for the
/// generic ones (mif1, msf1) the compatible brands do.
@Suite("HEIF brand recognition")
struct HEIFBrandRecognitionTests {
    /// An `ftyp` box with `major` and `compatible` brands, then the start of a `meta` box.
    static func ftyp(_ major: String, _ compatible: [String] = []) -> Data {
        let size = UInt32(16 + 4 * compatible.count)
        var bytes = withUnsafeBytes(of: size.bigEndian, Array.init) + Array("ftyp\(major)".utf8) + [0, 0, 0, 0]
        for brand in compatible { bytes += Array(brand.utf8) }
        return Data(bytes + [0, 0, 0, 8] + Array("meta".utf8))
    }

    @Test(arguments: ["heic", "heix", "heim", "heis", "hevc", "hevx"])
    func anHEVCBrandIsHEIC(_ brand: String) {
        #expect(AssetType(Self.ftyp(brand, ["mif1", brand])) == .heic)
    }

    @Test(arguments: ["avif", "avis"])
    func anAV1BrandIsAVIF(_ brand: String) {
        #expect(AssetType(Self.ftyp(brand, ["mif1", "miaf"])) == .avif)
    }

    @Test(arguments: [("mif1", "avif"), ("msf1", "avis"), ("mif1", "avis")])
    func aGenericMajorBrandWithAnAV1CompatibleBrandIsAVIF(_ major: String, _ compatible: String) {
        #expect(AssetType(Self.ftyp(major, ["miaf", compatible])) == .avif)
    }

    @Test(arguments: ["mif1", "msf1"])
    func aGenericMajorBrandWithoutAnAV1BrandIsHEIC(_ major: String) {
        #expect(AssetType(Self.ftyp(major, [major, "heic", "miaf"])) == .heic)
    }

    /// The compatible brands are read only as far as the `ftyp` box goes.
    @Test func brandsAfterTheFtypBoxAreNotCompatibleBrands() {
        var data = Self.ftyp("mif1", ["miaf"])
        data.append(contentsOf: Array("avif".utf8))
        #expect(AssetType(data) == .heic)
    }

    @Test func anUnknownBrandIsUnrecognised() {
        #expect(AssetType(Self.ftyp("qt  ", ["qt  "])) == nil)
    }
}
