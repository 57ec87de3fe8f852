import Foundation
import Synchronization
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads `file:` and `data:` URLs on a background queue, in one chunk.
final class LocalLoadingTask: DataLoadingTask, Sendable {
    private let isCancelled = Atomic<Bool>(false)

    func cancel() { isCancelled.store(true, ordering: .relaxed) }

    /// The loaders' way with every URL that is not http(s): `file:` (unless the configuration
    /// refuses them) and `data:` URLs are loaded, any other scheme fails at once.
    static func load(
        _ url: URL, scheme: String, configuration: DataLoader.Configuration,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask {
        switch scheme {
        case "file" where !configuration.allowsFileURLs:
            completion(DataLoaderError.fileURLsDisabled(url))
            return CompletedLoadingTask()
        case "file", "data":
            return start(
                url: url, maximumSize: configuration.maximumResponseDataSize, didReceiveData: didReceiveData,
                completion: completion)
        default:
            completion(DataLoaderError.unsupportedURL(url))
            return CompletedLoadingTask()
        }
    }

    static func start(
        url: URL, maximumSize: Int?,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> LocalLoadingTask {
        let task = LocalLoadingTask()
        DispatchQueue.global(qos: .userInitiated).async {
            do {
                let data = try url.isFileURL ? readFile(url, maximumSize: maximumSize) : decodeDataURL(url)
                if let maximumSize, data.count > maximumSize {
                    throw DataLoaderError.responseTooLarge(limit: maximumSize)
                }
                guard !task.isCancelled.load(ordering: .relaxed) else { throw URLError(.cancelled) }
                let response = URLResponse(
                    url: url, mimeType: nil, expectedContentLength: data.count, textEncodingName: nil)
                // An empty file still brings its response (DataLoading's contract).
                didReceiveData(data, response)
                completion(task.isCancelled.load(ordering: .relaxed) ? URLError(.cancelled) : nil)
            } catch {
                completion(error)
            }
        }
        return task
    }

    private static func readFile(_ url: URL, maximumSize: Int?) throws -> Data {
        if let maximumSize, let size = try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int,
            size > maximumSize
        {
            throw DataLoaderError.responseTooLarge(limit: maximumSize)
        }
        return try Data(contentsOf: url)
    }

    /// `data:[<media type>][;base64],<data>`
    static func decodeDataURL(_ url: URL) throws -> Data {
        let string = url.absoluteString
        guard string.lowercased().hasPrefix("data:"), let comma = string.firstIndex(of: ",") else {
            throw DataLoaderError.invalidDataURL
        }
        let header = string[string.index(string.startIndex, offsetBy: 5)..<comma]
        let payload = String(string[string.index(after: comma)...])
        if header.lowercased().hasSuffix(";base64") {
            guard
                let data = Data(
                    base64Encoded: payload.removingPercentEncoding ?? payload, options: .ignoreUnknownCharacters)
            else {
                throw DataLoaderError.invalidDataURL
            }
            return data
        }
        guard let text = payload.removingPercentEncoding else { throw DataLoaderError.invalidDataURL }
        return Data(text.utf8)
    }
}
