import Foundation

/// A type a ``Cache`` can read back from bytes (from disk or the network).
public protocol DataConvertible {
    /// The type `convertFromData(_:)` makes; a ``Cache`` requires `Result == Self`.
    associatedtype Result

    /// The value encoded by `data`, or `nil` when the bytes are not a valid encoding.
    static func convertFromData(_ data: Data) -> Result?
}

/// A type a ``Cache`` can write to disk.
public protocol DataRepresentable {
    /// The bytes that represent the value (read back with ``DataConvertible/convertFromData(_:)``);
    /// `nil` when it cannot be encoded, in which case nothing is written to disk.
    func asData() -> Data!
}

/// `Data` is stored as it is.
extension Data: DataConvertible, DataRepresentable {
    public typealias Result = Data

    /// The bytes themselves.
    public static func convertFromData(_ data: Data) -> Data? { data }

    /// The bytes themselves.
    public func asData() -> Data! { self }
}

/// Strings are stored as UTF-8.
extension String: DataConvertible, DataRepresentable {
    public typealias Result = String

    /// The string the bytes spell in UTF-8; `nil` for invalid UTF-8.
    public static func convertFromData(_ data: Data) -> String? { String(data: data, encoding: .utf8) }

    /// The string's UTF-8 bytes.
    public func asData() -> Data! { Data(utf8) }
}
