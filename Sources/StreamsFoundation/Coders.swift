import Foundation
import Streams

/// `JSONEncoder` encodes to `Data` for ``Streams/Publisher/encode(encoder:)``.
extension JSONEncoder: TopLevelEncoder {}
/// `JSONDecoder` decodes from `Data` for ``Streams/Publisher/decode(type:decoder:)``.
extension JSONDecoder: TopLevelDecoder {}
/// `PropertyListEncoder` encodes to `Data` for ``Streams/Publisher/encode(encoder:)``.
extension PropertyListEncoder: TopLevelEncoder {}
/// `PropertyListDecoder` decodes from `Data` for ``Streams/Publisher/decode(type:decoder:)``.
extension PropertyListDecoder: TopLevelDecoder {}
