/// A fetcher whose value is given up front (evaluated when fetched): what
/// ``Cache/fetch(key:value:formatName:success:)`` uses.
open class SimpleFetcher<T: DataConvertible>: Fetcher<T> {
    private let getValue: () -> T.Result

    /// A fetcher for `key` that succeeds with the value `getValue` gives.
    public init(key: String, value getValue: @autoclosure @escaping () -> T.Result) {
        self.getValue = getValue
        super.init(key: key)
    }

    /// Calls `success` with the value, synchronously, on the calling thread.
    open override func fetch(failure: @escaping (Error?) -> (), success: @escaping (T.Result) -> ()) {
        success(getValue())
    }

    /// Nothing to stop: the value is given at once.
    open override func cancelFetch() {}
}
