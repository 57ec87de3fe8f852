/// Named lists of options that URLs may ask for with `pr:NAME[:NAME…]` (`--preset NAME=options`,
/// options as imgproxy's `IMGPROXY_PRESETS` writes them, `/` between them), a `default` one
/// applied to every request before the URL's options, and whether URLs may name presets only
/// (`--only-presets`: `/{signature}/{name}:{name}/{source}`).
///
/// A preset is its options: a URL naming it is parsed, spelled and keyed as if it gave them, so
/// changing a preset's definition changes the results of the URLs that name it. Thread-safe (a
/// value).
public struct ThumbnailPresets: Sendable {
    /// No presets: `pr` names none, and every option may be given.
    public static let none = ThumbnailPresets()

    /// The options of each preset, by name, as given.
    public let definitions: [String: String]
    /// Whether URLs may only name presets (`--only-presets`): any other option is a 400.
    public let onlyPresets: Bool

    /// The `default` preset's options, applied before every URL's.
    var defaultOptions: [String]? { definitions["default"].map(ThumbnailOptions.segments(of:)) }

    private init() {
        definitions = [:]
        onlyPresets = false
    }

    /// Presets of `definitions` (name → options, `/` between them as imgproxy's
    /// `IMGPROXY_PRESETS` writes them: `rs:fill:300:200/q:80`), each checked as a URL's options
    /// would be against `maximumDimension`. A preset may name other presets (`pr:NAME`); one that
    /// names a preset it is already inside of (itself, or presets naming each other) skips that
    /// name, as imgproxy does. Throws ``ServiceError`` naming the first bad one: a name other
    /// than letters, digits, `_` and `-`, no options (imgproxy refuses an empty preset), or
    /// options that do not parse.
    public init(_ definitions: [String: String], onlyPresets: Bool = false, maximumDimension: Int) throws(ServiceError)
    {
        self.definitions = definitions
        self.onlyPresets = onlyPresets
        for (name, text) in definitions.sorted(by: { $0.key < $1.key }) {
            guard !name.isEmpty, name.utf8.allSatisfy({ ASCII.isAlphanumeric($0) || $0 == 95 || $0 == 45 }) else {
                throw .badOptions("preset \"\(name)\": a name is letters, digits, _ and -")
            }
            guard !ThumbnailOptions.segments(of: text).isEmpty else {
                throw .badOptions("preset \"\(name)\": no options (a preset is NAME=opt:arg/opt:arg)")
            }
            var options = ThumbnailOptions()
            do {
                try ThumbnailOptions.read(
                    ThumbnailOptions.segments(of: text), maximumDimension: maximumDimension, presets: self,
                    expanding: [name], into: &options)
            } catch {
                throw .badOptions("preset \"\(name)\": \(error.message)")
            }
        }
    }

    /// Reads the options of the presets `arguments` name, in order, into `options`; `expanding`
    /// names the presets already being expanded, whose names are skipped (a preset naming
    /// itself, or presets naming each other, as imgproxy skips them).
    func apply(
        _ arguments: OptionArguments, maximumDimension: Int, expanding: [String], to options: inout ThumbnailOptions
    ) throws(ServiceError) {
        guard arguments.count >= 1, arguments.count <= OptionArguments.capacity else {
            throw .badOptions("pr takes 1 to \(OptionArguments.capacity) preset names, as in pr:thumbnail")
        }
        for index in 0..<arguments.count {
            let name = arguments[index]
            guard let text = definitions[name] else {
                throw .badOptions(
                    "pr: unknown preset \"\(name)\" (known: \(definitions.keys.sorted().joined(separator: ", ")))")
            }
            guard !expanding.contains(name) else { continue }
            try ThumbnailOptions.read(
                ThumbnailOptions.segments(of: text), maximumDimension: maximumDimension, presets: self,
                expanding: expanding + [name], into: &options)
        }
    }
}
