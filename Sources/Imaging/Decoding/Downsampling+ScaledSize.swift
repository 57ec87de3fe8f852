extension ImageDecodingOptions.Downsampling {
    /// The smallest size, in the stored frame, that a decoder able to scale to any size (WebP's
    /// scaler) may produce for a `width`×`height` file stored with `orientation` so that the
    /// upright result still satisfies this target. Never larger than the file (no upscaling);
    /// the aspect ratio is kept to within a pixel.
    func scaledSize(width: Int, height: Int, orientation: ImageOrientation = .up) -> (width: Int, height: Int) {
        let swaps = orientation.swapsDimensions
        let (uprightWidth, uprightHeight) = swaps ? (height, width) : (width, height)
        let scale: Double
        switch self {
        case .maxPixelSize(let size):
            scale = Double(size) / Double(max(uprightWidth, uprightHeight))
        case .covering(let targetWidth, let targetHeight):
            scale = max(Double(targetWidth) / Double(uprightWidth), Double(targetHeight) / Double(uprightHeight))
        }
        guard scale < 1 else { return (width, height) }
        // Round up so that the target side is reached, then clamp to the file's size.
        let scaledWidth = min(width, max(1, Int((Double(width) * scale).rounded(.up))))
        let scaledHeight = min(height, max(1, Int((Double(height) * scale).rounded(.up))))
        return (scaledWidth, scaledHeight)
    }
}
