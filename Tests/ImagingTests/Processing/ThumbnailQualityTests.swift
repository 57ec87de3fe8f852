import CometTestSupport
import Foundation
import Testing
@testable import Imaging

/// Thumbnails of the corpus's real photos, made as a pipeline makes them (the JPEG decoded at
/// the reduced size the resize allows, then the resize), against `FloatLanczos3` over the
/// full-size decode. The thresholds are at least what libvips' `vipsthumbnail` reaches on the
/// same photos at each ratio (`scripts/thumbnail-quality`, BENCHMARKS.md "Thumbnails against
/// libvips"): a median PSNR of 47 dB, a median edge energy within 3% of the reference's, and no
/// photo below 40 dB. Just past a reduced decode's threshold (3.01×, 6.1×, 12.5×), where the
/// kernel is left a reduction of 1.5, the median is held to 45 dB: Comet measures 45–47 dB there
/// and libvips, which decodes larger, 53, 49 and 40 dB, so at 3.01× and 6.1× these two are below
/// libvips' (the cost of the 1.5 headroom, BENCHMARKS.md).
@Suite("Thumbnail quality against a float Lanczos3", .requiresCorpus("png-real", "sharp-photos"))
struct ThumbnailQualityTests {
    /// The photos: four Kodak PNGs written as JPEGs (quality 90, 4:2:0) and a JPEG photo.
    static let photos: [(name: String, jpeg: Data)] = {
        let kodak = ["kodim02", "kodim07", "kodim17", "kodim23"].compactMap { name -> (String, Data)? in
            guard let data = try? TestCorpus.data("png-real/\(name).png"),
                let image = try? PNGDecoder().decode(data).image,
                let jpeg = try? ImageEncoders.jpeg(image, quality: 0.9)
            else { return nil }
            return (name, jpeg)
        }
        let photo = (try? TestCorpus.data("sharp-photos/2569067123_aca715a2ee_o.jpg")).map { [("2569067123", $0)] }
        return kodak + (photo ?? [])
    }()

    /// The thumbnail the default resize makes of `jpeg`, filled and cropped to `side`², and the
    /// reference's.
    static func thumbnails(_ jpeg: Data, side: Int, filter: ImageProcessors.Resize.Filter = .lanczos3) throws
        -> (thumbnail: Image, reference: Image)
    {
        let resize = ImageProcessors.Resize(size: Size(width: side, height: side), crop: true, filter: filter)
        let decoded = try JPEGDecoder().decode(
            jpeg, options: ImageDecodingOptions(downsampling: resize.decodingDownsampling)
        ).image
        let full = try JPEGDecoder().decode(jpeg).image
        return (try resize.process(decoded), FloatLanczos3.fill(full, width: side, height: side))
    }

    /// Each ratio and its median PSNR threshold. 3.01×, 6.1× and 12.5× are just past the
    /// thresholds of the 1/2, 1/4 and 1/8 decodes (the least the rule leaves the kernel, 1.5).
    @Test(arguments: [(1.5, 47.0), (2, 47), (3, 47), (3.01, 45), (4.2, 47), (6.1, 45), (12.5, 45), (23, 47)])
    func thumbnailsMatchTheFloatReference(ratio: Double, medianPSNR: Double) throws {
        var results: [ImageComparison] = []
        for photo in Self.photos {
            let size = try JPEGDecoder().decode(photo.jpeg, options: ImageDecodingOptions(downsampling: nil)).image
            let side = max(1, Int((Double(min(size.width, size.height)) / ratio).rounded()))
            let (thumbnail, reference) = try Self.thumbnails(photo.jpeg, side: side)
            let comparison = ImageComparison(thumbnail, reference: reference)
            #expect(comparison.psnr >= 40, "\(photo.name) at \(ratio)×: \(comparison)")
            #expect(comparison.ssim >= 0.985, "\(photo.name) at \(ratio)×: \(comparison)")
            results.append(comparison)
        }
        #expect(results.count == 5)
        let psnrs = results.map(\.psnr).sorted(), edges = results.map(\.edgeRatio).sorted()
        #expect(psnrs[psnrs.count / 2] >= medianPSNR, "median PSNR at \(ratio)×: \(psnrs)")
        #expect(abs(edges[edges.count / 2] - 1) <= 0.03, "median edge energy ratio at \(ratio)×: \(edges)")
    }

    @Test(arguments: [1, 2, 3, 5, 8])
    func tinyThumbnailsMatchTheFloatReference(side: Int) throws {
        for photo in Self.photos.prefix(2) {
            let (thumbnail, reference) = try Self.thumbnails(photo.jpeg, side: side)
            let comparison = ImageComparison(thumbnail, reference: reference)
            #expect(comparison.psnr >= 40, "\(photo.name) → \(side)²: \(comparison)")
        }
    }

    @Test func anExtremeReductionMatchesTheFloatReference() throws {
        // 8000×6000 (the JPEG photo tiled 3×3, written at quality 90) → 64²: decoded at 1/8,
        // then reduced 11.7× by the kernel; the reference reduces the full decode 94×.
        let photo = try JPEGDecoder().decode(Self.photos.last!.jpeg).image
        let big = Image(width: 8000, height: 6000, isOpaque: true) { pixels, rowLength in
            photo.withUnsafeBytes { source in
                for y in 0..<6000 {
                    let sy = y % photo.height
                    for x in stride(from: 0, to: 8000, by: photo.width) {
                        let count = min(photo.width, 8000 - x) * 4
                        let from = source.baseAddress! + sy * photo.bytesPerRow
                        (pixels.baseAddress! + y * rowLength + x * 4).copyMemory(from: from, byteCount: count)
                    }
                }
            }
        }
        let jpeg = try ImageEncoders.jpeg(big, quality: 0.9)
        let (thumbnail, reference) = try Self.thumbnails(jpeg, side: 64)
        let comparison = ImageComparison(thumbnail, reference: reference)
        #expect(comparison.psnr >= 42 && abs(comparison.edgeRatio - 1) <= 0.05, "\(comparison)")
    }

    @Test(arguments: [
        ("png-real/Transparency.png", 2.0), ("png-real/Transparency.png", 4.2),
        ("png-real/tango-icon-address-book-new-128-rsvg-convert.png", 3.0),
        ("png-real/tango-icon-address-book-new-128-rsvg-convert.png", 8.0),
    ])
    func alphaEdgesMatchTheFloatReference(file: String, ratio: Double) throws {
        // Premultiplied on both sides: transparent pixels' colour never bleeds into the edge.
        let image = try PNGDecoder().decode(TestCorpus.data(file)).image
        #expect(!image.isOpaque)
        let side = Int((Double(min(image.width, image.height)) / ratio).rounded())
        let thumbnail = try ImageProcessors.Resize(size: Size(width: side, height: side), crop: true).process(image)
        let reference = FloatLanczos3.fill(image, width: side, height: side)
        let comparison = ImageComparison(thumbnail, reference: reference, premultiplied: true)
        #expect(comparison.psnr >= 45, "\(file) at \(ratio)×: \(comparison)")
    }

    @Test func theAreaAverageIsMeasurablySofterThanLanczos3() throws {
        // What the fast option costs, so that its documented figure stays true: at 3× (a 256²
        // fill of a 768×512 photo is 2×), the area average loses edge energy that Lanczos3 keeps.
        let photo = Self.photos[0]
        let (area, reference) = try Self.thumbnails(photo.jpeg, side: 171, filter: .areaAverage)
        let (lanczos, _) = try Self.thumbnails(photo.jpeg, side: 171)
        let (a, l) = (ImageComparison(area, reference: reference), ImageComparison(lanczos, reference: reference))
        #expect(a.edgeRatio < 0.9 && a.psnr < l.psnr - 3, "area \(a), Lanczos3 \(l)")
    }
}

extension ImageComparison: CustomStringConvertible {
    var description: String {
        String(format: "PSNR %.1f dB, SSIM %.4f, edge energy ×%.3f", psnr, ssim, edgeRatio)
    }
}
