import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real HTTP client for the tests: URLSession (libcurl on Linux), no caching, 15 s timeouts.
struct HTTPClient: Sendable {
    /// One answer.
    struct Answer: Sendable {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]

        /// A header, by case-insensitive name.
        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }

        /// The JSON error code of an error body (`{"error":{"code":…}}`).
        var errorCode: String? {
            guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
                let error = object["error"] as? [String: Any]
            else { return nil }
            return error["code"] as? String
        }
    }

    private let session: URLSession

    init(timeout: Double = 15) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = 32
        session = URLSession(configuration: configuration)
    }

    /// Requests `url` with `headers` (GET unless `method` says otherwise).
    func get(_ url: URL, headers: [String: String] = [:], method: String = "GET") async throws -> Answer {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields["\(name)"] = "\(value)" }
        return Answer(status: http.statusCode, headers: fields, body: [UInt8](data))
    }
}
