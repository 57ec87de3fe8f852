import Foundation

/// Turns an image into another one (resize, filter…); `nil` means it failed.
///
/// Equatable so that requests with equal processors share a memory-cache entry. The loader runs
/// processors on its processing scheduler, off the caller's thread.
public protocol Processing: Equatable {
    /// Returns the processed image, or `nil` when it cannot be made (the load then fails with
    /// ``Loader/Error/processingFailed``).
    func process(_ image: Image) -> Image?
}
