// Alamofire 3's case names (`.GET`, ...), kept for source compatibility.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// HTTP methods, spelled as in Alamofire 3 (`.GET`).
public enum Method: String, Sendable {
    /// OPTIONS
    case OPTIONS
    /// GET
    case GET
    /// HEAD
    case HEAD
    /// POST
    case POST
    /// PUT
    case PUT
    /// PATCH
    case PATCH
    /// DELETE
    case DELETE
    /// TRACE
    case TRACE
    /// CONNECT
    case CONNECT
}
