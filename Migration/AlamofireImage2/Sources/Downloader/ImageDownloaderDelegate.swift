import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Supplies a credential per request, as the AlamofireImage 2.0 migration guide described (for
/// images behind different credentials on one downloader).
///
/// Set it as ``ImageDownloader/delegate`` (held weakly). It is asked once when a download is
/// created, on the thread calling `downloadImage`; a credential it returns wins over the
/// downloader's ``ImageDownloader/credential``.
public protocol ImageDownloaderDelegate: AnyObject {
    // AlamofireImage 2's parameter name, kept as conformers copy it.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// The credential for `URLRequest`, or `nil` to use the downloader's credential (if any).
    func authenticationCredentialForURLRequest(_ URLRequest: URLRequest) -> URLCredential?
}
