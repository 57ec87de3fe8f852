import Comet

/// `t`'s trim as imgproxy makes it: a source with transparency is judged as laid on magenta
/// (255, 0, 255), as imgproxy lays it before it looks for the border, and the source itself is
/// then cut to what that judgement keeps (its transparency kept).
///
/// So the border compared with the trim's colour, or with the top left pixel when none is
/// given, is the flattened one: a transparent border is trimmed with no colour or with
/// `ff00ff`, and kept with any colour far from magenta; an opaque border of the colour is
/// trimmed as on an opaque source. Thread-safe (immutable).
struct SourceTrim: ImageProcessing, Hashable {
    /// The trim (threshold, colour, equal cuts).
    let trim: ImageProcessors.Trim

    /// The colour a translucent source is judged on: imgproxy's.
    static let matte = RGBA8(red: 255, green: 0, blue: 255)

    /// E.g. `com.comet.server.trim?matte=ff00ff&com.comet.trim?threshold=10&color=auto&…`.
    var identifier: String { "com.comet.server.trim?matte=ff00ff&" + trim.identifier }

    func process(_ image: Image) throws -> Image {
        let judged = image.isOpaque ? image : image.flattened(onto: Self.matte)
        guard let kept = try trim.keptRectangle(of: judged) else { return image }
        return try ImageProcessors.Crop(x: kept.x, y: kept.y, width: kept.width, height: kept.height).process(image)
    }
}
