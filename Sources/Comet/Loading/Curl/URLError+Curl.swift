import CCurl
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLError {
    /// The `URLError` that URLSession on Linux reports for the same libcurl failure, with
    /// libcurl's message as its description.
    init(curlCode code: CURLcode, message: String, url: URL?) {
        let reason: URLError.Code =
            switch code {
            case CURLE_UNSUPPORTED_PROTOCOL: .unsupportedURL
            case CURLE_URL_MALFORMAT: .badURL
            case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .cannotFindHost
            case CURLE_COULDNT_CONNECT: .cannotConnectToHost
            case CURLE_OPERATION_TIMEDOUT: .timedOut
            case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE: .networkConnectionLost
            case CURLE_TOO_MANY_REDIRECTS: .httpTooManyRedirects
            case CURLE_BAD_CONTENT_ENCODING: .cannotDecodeContentData
            case CURLE_PEER_FAILED_VERIFICATION: .serverCertificateUntrusted
            case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE,
                CURLE_SSL_ISSUER_ERROR:
                .secureConnectionFailed
            case CURLE_WEIRD_SERVER_REPLY: .badServerResponse
            default: .unknown
            }
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
        ]
        if let url { info[NSURLErrorFailingURLErrorKey] = url }
        self.init(reason, userInfo: info)
    }
}
