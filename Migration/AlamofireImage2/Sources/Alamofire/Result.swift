/// The outcome of a request, as Alamofire 3 spelled it: `.Success(value)` or `.Failure(error)`.
///
/// Declared in this module, it shadows the standard library's `Result` in files that import
/// `AlamofireImageCompat`, so legacy `switch response.result { case .Success(let image): … }`
/// compiles unchanged. Sendable when its payloads are.
public enum Result<Value, Error: Swift.Error> {
    // Alamofire 3's name, kept for source compatibility.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// The request and serialization succeeded with `Value`.
    case Success(Value)
    // Alamofire 3's name, kept for source compatibility.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// The request or serialization failed with `Error`.
    case Failure(Error)

    /// `true` for `.Success`.
    public var isSuccess: Bool {
        if case .Success = self { return true }
        return false
    }

    /// `true` for `.Failure`.
    public var isFailure: Bool { !isSuccess }

    /// The success value, or `nil` on failure.
    public var value: Value? {
        if case .Success(let value) = self { return value }
        return nil
    }

    /// The failure error, or `nil` on success.
    public var error: Error? {
        if case .Failure(let error) = self { return error }
        return nil
    }
}

extension Result: Sendable where Value: Sendable, Error: Sendable {}

extension Result: CustomStringConvertible, CustomDebugStringConvertible {
    /// `SUCCESS` or `FAILURE`, as Alamofire printed it.
    public var description: String { isSuccess ? "SUCCESS" : "FAILURE" }

    /// `SUCCESS: <value>` or `FAILURE: <error>`.
    public var debugDescription: String {
        switch self {
        case .Success(let value): "SUCCESS: \(value)"
        case .Failure(let error): "FAILURE: \(error)"
        }
    }
}
