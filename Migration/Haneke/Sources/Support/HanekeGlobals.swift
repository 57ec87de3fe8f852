import Foundation

// Haneke's names (`HanekeGlobals.Domain`, ...), kept for source compatibility.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// Haneke's constants: the error domain, the name of the original format and every error code.
public struct HanekeGlobals {
    /// The domain of every `NSError` the shim reports: `"io.haneke"`.
    public static let Domain = "io.haneke"

    /// Constants of ``Cache``.
    public struct Cache {
        /// The name of the format every cache has from the start (no transform, unlimited disk).
        public static let OriginalFormatName = "original"

        /// Codes of the errors a ``Cache`` reports.
        public enum ErrorCode: Int {
            /// -100: neither memory nor disk holds the key (`fetch(fetcher:)` then runs its fetcher).
            case objectNotFound = -100
            /// -101: the cache has no format with the requested name.
            case formatNotFound = -101
        }
    }

    /// Constants of ``NetworkFetcher``.
    public struct NetworkFetcher {
        /// Codes of the errors a ``NetworkFetcher`` reports.
        public enum ErrorCode: Int {
            /// -400: the body could not be converted to the value type.
            case invalidData = -400
            /// -401: the body is shorter than its Content-Length.
            case missingData = -401
            /// -402: the status is not 200 or 201.
            case invalidStatusCode = -402
        }
    }

    /// Constants of ``DiskFetcher``.
    public struct DiskFetcher {
        /// Codes of the errors a ``DiskFetcher`` reports.
        public enum ErrorCode: Int {
            /// -500: the file's bytes could not be converted to the value type.
            case invalidData = -500
        }
    }

    /// Image formats made from an ``ImageResizer`` (the name Haneke gave them on Apple platforms).
    public struct UIKit {
        /// Defaults of ``formatWithSize(_:scaleMode:allowUpscaling:)``.
        public struct DefaultFormat {
            /// Disk capacity of a resizing format: 10 MiB.
            public static let DiskCapacity: UInt64 = 10 * 1024 * 1024
            /// JPEG quality its opaque images are stored with: 0.75.
            public static let CompressionQuality: Float = 0.75
        }

        /// A format that resizes images with an ``ImageResizer`` and stores them with
        /// ``DefaultFormat/CompressionQuality``; named like Haneke's, e.g.
        /// `"auto-100.0x100.0-aspectfill"`. (Haneke kept this helper internal for its UIKit
        /// extensions; Linux has no UIKit, so the shim makes it public.)
        public static func formatWithSize(
            _ size: CGSize, scaleMode: ImageResizer.ScaleMode,
            allowUpscaling: Bool = true
        ) -> Format<Image> {
            let name = "auto-\(size.width)x\(size.height)-\(scaleMode.rawValue)"
            let resizer = ImageResizer(
                size: size, scaleMode: scaleMode, allowUpscaling: allowUpscaling,
                compressionQuality: DefaultFormat.CompressionQuality)
            var format = Format<Image>(name: name, diskCapacity: DefaultFormat.DiskCapacity) { image in
                resizer.resizeImage(image)
            }
            format.convertToData = { image in image.hnk_data(compressionQuality: resizer.compressionQuality) }
            return format
        }
    }
}

/// An `NSError` in the Haneke domain with `description` as its localized description.
func errorWithCode(_ code: Int, description: String) -> NSError {
    NSError(domain: HanekeGlobals.Domain, code: code, userInfo: [NSLocalizedDescriptionKey: description])
}
