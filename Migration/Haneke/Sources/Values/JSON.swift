import Foundation

/// A JSON document whose top level is an object or an array (parsed with `JSONSerialization`).
public enum JSON: DataConvertible, DataRepresentable {
    public typealias Result = JSON

    // Haneke's name, kept for source compatibility.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// A top-level object.
    case Dictionary([String: Any])
    // Haneke's name, kept for source compatibility.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// A top-level array.
    case Array([Any])

    /// The document parsed from `data`; `nil` when it is not JSON or its top level is a scalar.
    public static func convertFromData(_ data: Data) -> JSON? {
        guard let object = try? JSONSerialization.jsonObject(with: data) else { return nil }
        switch object {
        case let dictionary as [String: Any]: return .Dictionary(dictionary)
        case let array as [Any]: return .Array(array)
        default: return nil
        }
    }

    /// The document serialized compactly; `nil` if it holds values JSON cannot represent.
    public func asData() -> Data! {
        let object: Any =
            switch self {
            case .Dictionary(let dictionary): dictionary
            case .Array(let array): array
            }
        guard JSONSerialization.isValidJSONObject(object) else { return nil }
        return try? JSONSerialization.data(withJSONObject: object)
    }

    /// The elements when the top level is an array, else `nil`.
    public var array: [Any]! {
        if case .Array(let array) = self { return array }
        return nil
    }

    /// The members when the top level is an object, else `nil`.
    public var dictionary: [String: Any]! {
        if case .Dictionary(let dictionary) = self { return dictionary }
        return nil
    }
}
