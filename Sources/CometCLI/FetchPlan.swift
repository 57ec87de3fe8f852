import Foundation

/// Turns `comet fetch` arguments into URLs and unique output names.
///
/// An argument with a scheme is a URL (`http`, `https`, `file`; other schemes are kept and fail
/// when loaded, with a clear error); one without is a file path. The output name is the last
/// path component without its extension (`image` when empty), plus `-WxH` when resizing; a name
/// already taken in the batch, or naming a source file, gets `-2`, `-3`… appended.
struct FetchPlan {
    /// One URL to fetch.
    struct Item: Sendable {
        /// The argument as typed.
        var argument: String
        /// The URL, or `nil` when the argument is not one.
        var url: URL?
        /// The output file without its extension.
        var outputBase: URL
    }

    /// The items, in argument order.
    let items: [Item]

    /// Plans `arguments` into `outputDirectory`.
    init(arguments: [String], resize: ThumbnailSize?, outputDirectory: URL) {
        var taken = Set<String>()
        let sources = Set(
            arguments.compactMap { Self.url(for: $0) }.filter(\.isFileURL)
                .map { $0.standardizedFileURL.deletingPathExtension().path })
        items = arguments.map { argument in
            let url = Self.url(for: argument)
            var stem = url.map { ($0.lastPathComponent as NSString).deletingPathExtension } ?? ""
            stem = stem.filter { $0 != "/" && $0 != "\0" }
            if stem.isEmpty || stem == "." || stem == ".." { stem = "image" }
            if let resize { stem += "-\(resize.width)x\(resize.height)" }
            var candidate = stem
            var counter = 1
            while taken.contains(candidate)
                || sources.contains(outputDirectory.appendingPathComponent(candidate).standardizedFileURL.path)
            {
                counter += 1
                candidate = "\(stem)-\(counter)"
            }
            taken.insert(candidate)
            return Item(argument: argument, url: url, outputBase: outputDirectory.appendingPathComponent(candidate))
        }
    }

    /// The URL for an argument: parsed when it has a scheme, a file URL otherwise.
    static func url(for argument: String) -> URL? {
        if let colon = argument.firstIndex(of: ":"), argument[..<colon].count > 1,
            argument[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
        {
            return URL(string: argument)
        }
        guard !argument.isEmpty else { return nil }
        return URL(fileURLWithPath: argument)
    }
}
