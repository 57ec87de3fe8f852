/// What Comet knows of one image format, in one place: its names, media type and file
/// extensions, what it can hold, its encoders' default quality, whether Comet decodes and
/// encodes it, and how its files begin.
///
/// The registry is ``all``; ``AssetType``'s recognition, the encoders' defaults, comet-server
/// (media types, `skp`'s names, file names) and the CLI read their facts from it. Thread-safe (a
/// value).
public struct ImageFormat: Sendable, Hashable, Identifiable {
    /// How a file of the format begins: every one of its parts, in a file of at least
    /// ``minimumLength`` bytes.
    public struct Signature: Sendable, Hashable {
        /// Bytes a file of the format holds at an offset.
        public struct Part: Sendable, Hashable {
            /// The bytes.
            public let bytes: [UInt8]
            /// Where they start (0: the file's first byte).
            public let offset: Int

            /// `bytes` at `offset`.
            public init(_ bytes: [UInt8], at offset: Int = 0) {
                self.bytes = bytes
                self.offset = offset
            }

            /// The ASCII bytes of `text` at `offset`.
            public static func ascii(_ text: String, at offset: Int = 0) -> Part { Part(Array(text.utf8), at: offset) }
        }

        /// What the file holds, all of it.
        public let parts: [Part]
        /// The shortest file that can be of the format (at least long enough for ``parts``).
        public let minimumLength: Int

        /// A signature of `parts`, in a file of at least `minimumLength` bytes (by default just
        /// long enough to hold them).
        public init(_ parts: Part..., minimumLength: Int = 0) {
            self.parts = parts
            self.minimumLength = parts.reduce(minimumLength) { max($0, $1.offset + $1.bytes.count) }
        }

        /// Whether `head` (a file's first bytes) begins with the signature.
        func matches(_ head: [UInt8]) -> Bool {
            head.count >= minimumLength && parts.allSatisfy { head[$0.offset...].starts(with: $0.bytes) }
        }
    }

    /// The format's ``AssetType``, what the registry is keyed by.
    public let type: AssetType
    /// The name people use, e.g. "JPEG XL".
    public let name: String
    /// The HTTP media type, e.g. `image/jxl`.
    public let mimeType: String
    /// The file extensions, lower case and without the dot; the first is the one Comet writes
    /// (`jpg` for JPEG).
    public let fileExtensions: [String]
    /// Whether the format keeps transparency.
    public let supportsAlpha: Bool
    /// Whether Comet reads the format's animations as animations (``AnimatedImage``), and writes
    /// them where it encodes the format; false where only the first frame is read.
    public let supportsAnimation: Bool
    /// Whether the format stores a grey image as one channel.
    public let supportsGrey: Bool
    /// The quality the format's encoder uses when none is given (0...1), `nil` for a format
    /// without one (lossless, or not encoded).
    public let defaultQuality: Double?
    /// Whether ``ImageDecoderRegistry/default`` decodes the format; a format Comet only
    /// recognises is named in errors ("BMP is not supported").
    public let isDecoded: Bool
    /// Whether ``ImageEncoders`` writes the format.
    public let isEncoded: Bool
    /// How the format's files begin (any one of them).
    public let signatures: [Signature]
    /// The ISO BMFF brands that name the format in an `ftyp` box (AVIF's `avif`, HEIC's `heic`…).
    public let isoBrands: [String]

    /// The format's type: formats are identified by it.
    public var id: AssetType { type }

    /// The extension Comet gives a file of the format, e.g. `jpg`.
    public var preferredFileExtension: String { fileExtensions[0] }
}

extension ImageFormat {
    /// The facts of `type`; `nil` for a type the registry does not hold (one a custom decoder
    /// registered).
    public init?(_ type: AssetType) {
        guard let format = Self.all.first(where: { $0.type == type }) else { return nil }
        self = format
    }

    /// The format a file extension names (`jpg`, `JPEG`, `heif`…), case-insensitively, without
    /// the dot; `nil` when none does.
    public init?(fileExtension: some StringProtocol) {
        guard let type = AssetType(fileExtension: fileExtension) else { return nil }
        self.init(type)
    }

    /// The format of a media type (`image/webp`; parameters after `;` ignored),
    /// case-insensitively; `nil` when none is.
    public init?(mimeType: some StringProtocol) {
        // A media type holds no spaces: those around it (and its parameters) are dropped.
        let essence = String(mimeType.prefix { $0 != ";" }.filter { $0 != " " && $0 != "\t" }).lowercased()
        guard let format = Self.all.first(where: { $0.mimeType == essence }) else { return nil }
        self = format
    }
}
