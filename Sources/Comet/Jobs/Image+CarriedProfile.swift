import Imaging

extension Image {
    /// This image with `input`'s colour profile when it has none of its own: processors work on
    /// the numbers, so their output means what their input meant (a resize of a Display P3 image
    /// is Display P3), and the profile follows it through the pipeline to the encoders.
    func carryingColorProfile(of input: Image) -> Image {
        colorProfile == nil && input.colorProfile != nil ? withColorProfile(input.colorProfile) : self
    }
}

extension ImageDecodingOptions {
    /// These options with ``ImageDecodingOptions/keepsOriginalColors`` set as a key says.
    func keepingOriginalColors(_ keeps: Bool) -> ImageDecodingOptions {
        var options = self
        options.keepsOriginalColors = keeps
        return options
    }
}
