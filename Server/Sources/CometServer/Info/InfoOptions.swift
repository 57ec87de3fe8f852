/// The options of an `/info/…` URL, parsed.
///
/// Path segments, each `name:arg:arg…`, as in processing URLs (none: the default). The only
/// option is `bh` (long name `blurhash`), imgproxy's name for it: `bh:{x}:{y}` asks for a
/// BlurHash of x × y components (each 1…9; default 4 × 3), `bh:0` for none. Processing options
/// are refused: `/info` describes the source, not a result. Thread-safe (a value).
public struct InfoOptions: Sendable, Hashable {
    /// The BlurHash's components along x and y, or `nil` for no BlurHash.
    public var blurHashComponents: (x: Int, y: Int)?

    /// The components when the URL names none: 4 × 3, as BlurHash's own examples use.
    public static let defaultBlurHashComponents = (x: 4, y: 3)

    /// Creates options: by default a 4 × 3 BlurHash.
    public init(blurHashComponents: (x: Int, y: Int)? = InfoOptions.defaultBlurHashComponents) {
        self.blurHashComponents = blurHashComponents
    }

    /// The canonical spelling, part of the answer's key and ETag: `-` for the default, else
    /// `bh:X:Y` or `bh:0`.
    public var canonical: String {
        guard let components = blurHashComponents else { return "bh:0" }
        let isDefault = components == Self.defaultBlurHashComponents
        return isDefault ? "-" : "bh:\(components.x):\(components.y)"
    }

    /// Parses an `/info` URL's option segments (``ThumbnailPath/options``); a later `bh`
    /// overrides an earlier one, as in imgproxy. Throws ``ServiceError`` (400, `bad_options`)
    /// naming the option for an unknown option or a bad value.
    public static func parse(_ segments: [String]) throws(ServiceError) -> InfoOptions {
        var options = InfoOptions()
        for item in segments {
            let parts = item.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            let name = parts[0]
            guard name == "bh" || name == "blurhash" else {
                guard !name.isEmpty else { throw .badOptions("an empty option in \"\(item)\"") }
                throw .badOptions("unknown /info option \"\(name)\" (known: bh)")
            }
            options.blurHashComponents = try blurHash(Array(parts.dropFirst()), name: name)
        }
        return options
    }

    /// `bh`'s components from its arguments: `0`, or x and y within ``BlurHash/componentRange``.
    private static func blurHash(_ arguments: [String], name: String) throws(ServiceError) -> (x: Int, y: Int)? {
        if arguments == ["0"] { return nil }
        let range = BlurHash.componentRange
        guard arguments.count == 2, let x = Int(arguments[0]), let y = Int(arguments[1]),
            range.contains(x), range.contains(y), arguments.allSatisfy({ $0.utf8.count == 1 })
        else {
            throw .badOptions(
                "\(name) takes x and y components from \(range.lowerBound) to \(range.upperBound), as in bh:4:3 "
                    + "(or bh:0 for no BlurHash)")
        }
        return (x, y)
    }

    /// Whether both ask for the same BlurHash.
    public static func == (lhs: InfoOptions, rhs: InfoOptions) -> Bool {
        lhs.blurHashComponents?.x == rhs.blurHashComponents?.x && lhs.blurHashComponents?.y == rhs.blurHashComponents?.y
    }

    /// Hashes the BlurHash's components.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(blurHashComponents?.x)
        hasher.combine(blurHashComponents?.y)
    }
}
