import Foundation

/// How a ``Promise`` ended: with a value or with an error.
public enum PromiseResolution<T> {
    /// The promise was fulfilled with a value.
    case fulfilled(T)
    /// The promise was rejected with an error.
    case rejected(Error)

    /// The value when fulfilled, else `nil`.
    public var value: T? {
        if case .fulfilled(let value) = self { return value }
        return nil
    }

    /// The error when rejected, else `nil`.
    public var error: Error? {
        if case .rejected(let error) = self { return error }
        return nil
    }
}
