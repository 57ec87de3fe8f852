import CometServer

extension ThumbnailOptions {
    /// The segments of options written as one text, `/` between them (`""` and `-` for none),
    /// as a URL's path holds them.
    static func testSegments(_ text: String) -> [String] {
        text.isEmpty || text == "-" ? [] : text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }
}
