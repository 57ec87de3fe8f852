import Foundation

/// Every frame of an animated image (GIF, animated WebP), composited: each frame is the whole
/// canvas as it looks while that frame is shown, so a player only swaps bitmaps.
///
/// Decoders make one when ``ImageDecodingOptions/decodesAnimation`` is `true` and the file is
/// animated; pipelines deliver it in ``DecodedImage/animation`` and (with the request option
/// `.decodeAnimation` of the Comet module) in the image response. The first frame is also the
/// response's still image. Display it by showing `frames[i].image` for `frames[i].duration`
/// seconds, in order, repeating ``loopCount`` times (0: forever).
///
/// A `Sendable` value; frames share nothing with each other.
public struct AnimatedImage: Sendable {
    /// One frame: the composited canvas and how long it stays on screen.
    public struct Frame: Sendable {
        /// The whole canvas while this frame shows (straight-alpha RGBA8).
        public var image: Image
        /// Seconds the frame stays on screen, as the file says (0 when the file gives none;
        /// browsers show such frames for 0.1 s, see ``AnimatedImage/displayDuration(at:)``).
        public var duration: Double

        /// Creates a frame.
        public init(image: Image, duration: Double) {
            self.image = image
            self.duration = duration
        }
    }

    /// The format the animation was decoded from.
    public var type: AssetType
    /// The frames, in display order; never empty.
    public var frames: [Frame]
    /// How many times the animation plays; 0 means forever. WebP's ANIM loop count as stored;
    /// for GIFs as browsers play them: no NETSCAPE2.0 extension, 1; its count n > 0, n + 1.
    public var loopCount: Int
    /// The encoded file the frames came from (for re-saving without re-encoding).
    public var data: Data

    /// Creates an animation. - Precondition: `frames` is not empty.
    public init(type: AssetType, frames: [Frame], loopCount: Int, data: Data) {
        precondition(!frames.isEmpty, "an animation has at least one frame")
        self.type = type
        self.frames = frames
        self.loopCount = loopCount
        self.data = data
    }

    /// The canvas width in pixels.
    public var width: Int { frames[0].image.width }
    /// The canvas height in pixels.
    public var height: Int { frames[0].image.height }
    /// One play of the animation in seconds (the sum of ``displayDuration(at:)``).
    public var duration: Double { frames.indices.reduce(0) { $0 + displayDuration(at: $1) } }

    /// How long a player should show frame `index`: its duration, or 0.1 s when the file gives
    /// less than 0.02 s (what browsers do for GIFs that declare 0 or 1 hundredth).
    public func displayDuration(at index: Int) -> Double {
        frames[index].duration < 0.02 ? 0.1 : frames[index].duration
    }

    /// The memory every frame keeps alive, in bytes (what caches count), plus the data.
    public var cost: Int { frames.reduce(data.count) { $0 + $1.image.cost } }
}
