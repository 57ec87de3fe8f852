import Foundation
import Testing

@testable import Imaging

/// `ImageFormat.all`, the one registry of what Comet knows of each format.
@Suite("The image format registry")
struct ImageFormatRegistryTests {
    @Test func theFormatsMarkedDecodedAreExactlyTheDefaultDecodersTypes() {
        #expect(Set(ImageFormat.all.filter(\.isDecoded).map(\.type)) == ImageDecoderRegistry.default.types)
    }

    @Test func eachFormatMarkedEncodedIsWrittenByAnEncoderAndRecognisedAsItself() throws {
        let image = EncodingTests.gradient(width: 16, height: 12, alpha: true)
        for format in ImageFormat.all where format.isEncoded {
            let data: Data
            switch format.type {
            case .jpeg: data = try ImageEncoders.jpeg(image)
            case .png: data = try ImageEncoders.png(image)
            case .webp: data = try ImageEncoders.webp(image)
            case .avif: data = try ImageEncoders.avif(image)
            case .gif:
                data = try ImageEncoders.gif(
                    AnimatedImage(type: .gif, frames: [.init(image: image, duration: 0)], loopCount: 1, data: Data()))
            default:
                Issue.record("\(format.name) is marked encoded, but no encoder here writes it")
                continue
            }
            #expect(AssetType(data) == format.type, "\(format.name)")
        }
    }

    @Test func noTwoFormatsShareATypeAnExtensionAMediaTypeOrABrand() {
        let all = ImageFormat.all
        #expect(Set(all.map(\.type)).count == all.count)
        #expect(Set(all.map(\.mimeType)).count == all.count)
        let extensions = all.flatMap(\.fileExtensions), brands = all.flatMap(\.isoBrands)
        #expect(Set(extensions).count == extensions.count)
        #expect(Set(brands).count == brands.count)
        #expect(ImageFormat.structuralISOBrands.isDisjoint(with: brands))
    }

    @Test func everyFormatIsRecognisedBySignaturesOrBrands() {
        for format in ImageFormat.all {
            #expect(!format.signatures.isEmpty || !format.isoBrands.isEmpty, "\(format.name)")
        }
    }

    @Test func aFileExtensionNamesItsFormatInAnyCase() {
        #expect(ImageFormat(fileExtension: "JPG")?.type == .jpeg)
        #expect(ImageFormat(fileExtension: "jpeg")?.type == .jpeg)
        #expect(ImageFormat(fileExtension: "heif")?.type == .heic)
        #expect(ImageFormat(fileExtension: "Jxl")?.type == .jpegXL)
        #expect(ImageFormat(fileExtension: "txt") == nil)
    }

    @Test func aMediaTypeNamesItsFormatWithoutItsParameters() {
        #expect(ImageFormat(mimeType: "Image/WebP; q=0.9")?.type == .webp)
        #expect(ImageFormat(mimeType: " image/jxl")?.type == .jpegXL)
        #expect(ImageFormat(mimeType: "image/x-unknown") == nil)
    }

    @Test func theExtensionWrittenIsTheFirst() {
        #expect(ImageFormat.jpeg.preferredFileExtension == "jpg")
        #expect(ImageFormat.heic.preferredFileExtension == "heic")
    }

    @Test func aTypeIsDescribedByItsRegisteredName() {
        #expect(AssetType.webp.description == "WebP")
        #expect(AssetType.jpegXL.description == "JPEG XL")
        #expect(AssetType("qoi").description == "QOI")
    }

    @Test func aBMPHeaderShorterThanItsFileHeaderIsNotRecognised() {
        #expect(AssetType(Data("BM".utf8) + Data(count: 11)) == nil)
        #expect(AssetType(Data("BM".utf8) + Data(count: 12)) == .bmp)
    }

    @Test func theEncodersDefaultQualitiesAreTheRegistrys() throws {
        let image = EncodingTests.gradient(width: 32, height: 24, alpha: false)
        #expect(try ImageEncoders.jpeg(image) == ImageEncoders.jpeg(image, quality: 0.85))
        #expect(try ImageEncoders.webp(image) == ImageEncoders.webp(image, quality: 0.8))
        #expect(ImageFormat.jpeg.defaultQuality == 0.85)
        #expect(ImageFormat.webp.defaultQuality == 0.8)
        #expect(ImageFormat.avif.defaultQuality == 0.6)
    }
}
