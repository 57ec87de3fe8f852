import CometTestSupport
import Foundation
import Testing

@testable import Comet

// The colour code of Imaging.docc/DecodingImages.md and Formats.md, kept identical so it
// compiles and runs.

@Suite("The colour examples of the Imaging guides run")
struct ColorDocsTests {
    /// A phone-like photo: the generated image's numbers tagged Display P3.
    static let p3JPEG = try! ImageEncoders.jpeg(
        TestImages.image(width: 64, height: 48).withColorProfile(.displayP3), quality: 0.9)

    @Test func keepingTheOriginalColours() throws {
        let data = Self.p3JPEG
        let original = try ImageDecoders.decode(data, options: ImageDecodingOptions(keepsOriginalColors: true))
        print(original.image.colorProfile?.name ?? "sRGB")  // "Display P3"
        let tagged = try original.image.jpegData()  // the profile is embedded again
        #expect(original.image.colorProfile?.name == "Display P3")
        let again = try ImageDecoders.decode(tagged, options: ImageDecodingOptions(keepsOriginalColors: true))
        #expect(again.image.colorProfile == .displayP3)
    }

    @Test func aPhonesPhotoIsConverted() throws {
        let iPhoneJPEG = Self.p3JPEG
        let decoded = try ImageDecoders.decode(iPhoneJPEG)
        if case .converted(let profile) = decoded.colorHandling {
            print("converted from \(profile)")  // "converted from Display P3": decoded.image holds sRGB numbers
        }
        #expect(decoded.colorHandling == .converted(from: "Display P3") && decoded.image.colorProfile == nil)
    }
}
