import Foundation

/// Ready-made caches, created on first use under ``DiskCache/baseDirectory``.
public struct Shared {
    /// Images, in the cache named `"shared-images"`.
    public static var imageCache: Cache<Image> { images }
    /// Raw bytes, in `"shared-data"`.
    public static var dataCache: Cache<Data> { data }
    /// Strings (stored as UTF-8), in `"shared-strings"`.
    public static var stringCache: Cache<String> { strings }
    // Haneke's name, kept for source compatibility.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// JSON documents, in `"shared-json"`.
    public static var JSONCache: Cache<JSON> { json }

    private static let images = Cache<Image>(name: "shared-images")
    private static let data = Cache<Data>(name: "shared-data")
    private static let strings = Cache<String>(name: "shared-strings")
    private static let json = Cache<JSON>(name: "shared-json")
}
