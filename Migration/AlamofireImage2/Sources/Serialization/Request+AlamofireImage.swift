import Foundation
import Imaging
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Request {
    /// Adds MIME types the image serializer accepts besides the built-in ones (image/tiff,
    /// image/jpeg, image/gif, image/png, image/ico, image/x-icon, image/bmp, image/x-bmp,
    /// image/x-xbitmap, image/x-ms-bmp, image/x-win-bitmap, and on Comet image/webp and
    /// image/avif). Process-wide; thread-safe.
    public class func addAcceptableImageContentTypes(_ contentTypes: Set<String>) {
        AcceptableImageContentTypes.shared.add(contentTypes)
    }

    /// A serializer that decodes the body into an ``Image``.
    ///
    /// Checks, in order: a transport or validation error is returned as is; no or empty data →
    /// `NSURLErrorDomain` -1015 (`NSURLErrorCannotDecodeRawData`); a MIME type outside the
    /// acceptable types → -1016 (`NSURLErrorCannotDecodeContentData`; `file:` URLs skip this
    /// check); bytes Comet's default decoders cannot decode → -1015, with the decoder's reason in
    /// `NSLocalizedFailureReasonErrorKey`.
    ///
    /// - Parameters:
    ///   - imageScale: accepted for source compatibility; Comet images have no scale (pixels
    ///     only). Must be positive.
    ///   - inflateResponseImage: accepted for source compatibility; Comet always decodes the
    ///     whole bitmap, so every image is already "inflated".
    public class func imageResponseSerializer(
        imageScale: CGFloat = 1,
        inflateResponseImage: Bool = true
    ) -> ResponseSerializer<Image, NSError> {
        precondition(imageScale > 0, "imageScale must be positive (got \(imageScale))")
        return ResponseSerializer { request, response, data, error in
            if let error { return .Failure(error) }
            guard let data, !data.isEmpty else {
                return .Failure(
                    AlamofireErrors.urlError(
                        NSURLErrorCannotDecodeRawData, "Data could not be serialized. Input data was nil or empty."))
            }
            if !(request?.url?.isFileURL ?? false) {
                let mimeType = response?.mimeType?.lowercased()
                guard let mimeType, AcceptableImageContentTypes.shared.contains(mimeType) else {
                    return .Failure(
                        AlamofireErrors.urlError(
                            NSURLErrorCannotDecodeContentData,
                            "Image content type \"\(mimeType ?? "(none)")\" is not an acceptable image content type"))
                }
            }
            do {
                return .Success(try Image(data: data))
            } catch {
                return .Failure(
                    AlamofireErrors.urlError(NSURLErrorCannotDecodeRawData, "The image could not be decoded: \(error)"))
            }
        }
    }

    /// Decodes the response into an ``Image`` with ``imageResponseSerializer(imageScale:inflateResponseImage:)``
    /// (off the main queue) and calls `completionHandler` on the main queue.
    ///
    /// On Linux the main queue must be running (`dispatchMain()` or a RunLoop) for the handler
    /// to be called; Swift Testing's and async `main`s run it.
    @discardableResult
    public func responseImage(
        imageScale: CGFloat = 1, inflateResponseImage: Bool = true,
        completionHandler: @escaping @MainActor (Response<Image, NSError>) -> Void
    ) -> Self {
        let serializer = Self.imageResponseSerializer(
            imageScale: imageScale, inflateResponseImage: inflateResponseImage)
        return response(queue: .main, responseSerializer: serializer) { response in
            MainActor.assumeIsolated { completionHandler(response) }
        }
    }
}

/// The process-wide set of MIME types the image serializer accepts.
final class AcceptableImageContentTypes: Sendable {
    static let shared = AcceptableImageContentTypes()
    private let types = LockedValue<Set<String>>([
        "image/tiff", "image/jpeg", "image/gif", "image/png", "image/ico", "image/x-icon",
        "image/bmp", "image/x-bmp", "image/x-xbitmap", "image/x-ms-bmp", "image/x-win-bitmap",
        "image/webp", "image/avif",  // formats of today's web that Comet decodes (not in AlamofireImage 2)
    ])

    func add(_ contentTypes: Set<String>) {
        types.withLock { $0.formUnion(contentTypes.map { $0.lowercased() }) }
    }

    func contains(_ mimeType: String) -> Bool {
        types.withLock { $0.contains(mimeType) }
    }
}
