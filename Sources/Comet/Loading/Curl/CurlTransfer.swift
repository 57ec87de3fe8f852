import CCurl
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One ``DataLoader`` load over HTTP(S): its request, its easy-handle options, what libcurl's
/// callbacks hand it, and its completion. The decisions are ``TransferLifecycle``'s; the body
/// is a ``BodyBuffer``.
///
/// Confined to the poll thread of its ``CurlDriver``, except `cancel()`, which may be called
/// from any thread: it raises a flag that stops deliveries at once and asks the poll thread to
/// remove the handle and complete the load.
final class CurlTransfer: DataLoadingTask, @unchecked Sendable {
    // @unchecked: every stored `var` is touched only on the driver's poll thread; `cancel()`
    // touches only the atomic flag and the driver's command queue.

    struct Handlers {
        let didReceiveData: @Sendable (Data, URLResponse) -> Void
        let completion: @Sendable ((any Error)?) -> Void
    }

    /// What the driver does after an attempt ended.
    enum NextStep {
        /// The load completed (its handlers have been called).
        case completed
        /// Start another attempt (a redirect, or a retry with a credential).
        case attemptAgain
        /// Ask the credential provider about this challenge, then report its answer.
        case askForCredential(URLAuthenticationChallenge)
    }

    let originalRequest: URLRequest
    private(set) var request: URLRequest
    private let delivery: DataDelivery
    private let settings: DataLoader.Configuration
    private let driver: CurlDriver
    private let cancelRequested = Atomic<Bool>(false)

    private var handlers: Handlers?
    private var lifecycle: TransferLifecycle
    private var head = ResponseHead()
    private var response: HTTPURLResponse?
    private var body = BodyBuffer()
    private var hasDelivered = false
    private var lastDelivery: UInt64 = 0
    private var credential: (URLCredential, status: Int, method: String)?
    private var headerList: UnsafeMutablePointer<curl_slist>?

    /// When the last byte of the running attempt arrived (or it started), in uptime nanoseconds.
    private(set) var lastActivity: UInt64 = 0
    /// When the whole load must have ended, in uptime nanoseconds.
    let resourceDeadline: UInt64

    /// Whether `cancel()` was called.
    var isCancelRequested: Bool { cancelRequested.load(ordering: .relaxed) }

    /// How often a `.batched` body is passed on while it arrives.
    static let batchInterval: UInt64 = 100_000_000

    init(
        request: URLRequest, delivery: DataDelivery, settings: DataLoader.Configuration, driver: CurlDriver,
        handlers: Handlers
    ) {
        self.originalRequest = request
        self.request = request
        self.delivery = delivery
        self.settings = settings
        self.driver = driver
        self.handlers = handlers
        self.lifecycle = TransferLifecycle(
            maximumResponseDataSize: settings.maximumResponseDataSize,
            answersChallenges: settings.credentialProvider != nil)
        self.resourceDeadline = Self.now() &+ Self.nanoseconds(settings.timeoutForResource)
    }

    deinit {
        if let headerList { curl_slist_free_all(headerList) }
    }

    func cancel() {
        guard !cancelRequested.exchange(true, ordering: .relaxed) else { return }
        driver.cancel(self)
    }

    // MARK: Attempts

    /// Sets the options of an attempt on `easy` (fresh, or reset by the driver). Returns an
    /// error when the request cannot be sent.
    func configure(_ easy: UnsafeMutableRawPointer) -> (any Error)? {
        guard let url = request.url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else {
            return DataLoaderError.unsupportedURL(request.url)
        }
        head = ResponseHead()
        response = nil
        lastActivity = Self.now()
        _ = url.absoluteString.withCString { cic_curl_set_pointer(easy, CURLOPT_URL, $0) }
        cic_curl_set_long(easy, CURLOPT_NOSIGNAL, 1)
        // Every coding libcurl can decode is accepted and decoded, as URLSession on Linux does.
        _ = "".withCString { cic_curl_set_pointer(easy, CURLOPT_ACCEPT_ENCODING, $0) }
        _ = "http,https".withCString { cic_curl_set_pointer(easy, CURLOPT_PROTOCOLS_STR, $0) }
        cic_curl_set_long(easy, CURLOPT_BUFFERSIZE, 64 << 10)
        cic_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(settings.timeoutForRequest))
        cic_curl_set_pointer(easy, CURLOPT_PRIVATE, Unmanaged.passUnretained(self).toOpaque())
        cic_curl_set_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(self).toOpaque())
        cic_curl_set_pointer(easy, CURLOPT_HEADERDATA, Unmanaged.passUnretained(self).toOpaque())
        cic_curl_set_data_callback(easy, CURLOPT_WRITEFUNCTION, curlTransferBody)
        cic_curl_set_data_callback(easy, CURLOPT_HEADERFUNCTION, curlTransferHeader)
        if let error = configureMethod(easy) { return error }
        configureHeaders(easy)
        if let (credential, status, method) = credential {
            Self.configure(easy, credential: credential, status: status, method: method)
        }
        return nil
    }

    private func configureMethod(_ easy: UnsafeMutableRawPointer) -> (any Error)? {
        let method = (request.httpMethod ?? "GET").uppercased()
        if request.httpBodyStream != nil { return URLError(.requestBodyStreamExhausted) }
        switch method {
        case "GET" where request.httpBody == nil:
            cic_curl_set_long(easy, CURLOPT_HTTPGET, 1)
        case "HEAD":
            cic_curl_set_long(easy, CURLOPT_NOBODY, 1)
        default:
            let body = request.httpBody ?? Data()
            cic_curl_set_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            if body.isEmpty {
                _ = "".withCString { cic_curl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0) }
            } else {
                body.withUnsafeBytes { _ = cic_curl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
            }
            if method != "POST" { _ = method.withCString { cic_curl_set_pointer(easy, CURLOPT_CUSTOMREQUEST, $0) } }
        }
        return nil
    }

    private func configureHeaders(_ easy: UnsafeMutableRawPointer) {
        if let headerList { curl_slist_free_all(headerList) }
        var list: UnsafeMutablePointer<curl_slist>?
        var fields = request.allHTTPHeaderFields ?? [:]
        let present = Set(fields.keys.map { $0.lowercased() })
        for (name, value) in settings.additionalHeaders where !present.contains(name.lowercased()) {
            fields[name] = value
        }
        if !fields.keys.contains(where: { $0.lowercased() == "user-agent" }) { fields["User-Agent"] = Self.userAgent }
        // libcurl would otherwise wait for a 100 Continue before sending a body.
        fields["Expect"] = ""
        for (name, value) in fields {
            // A line break in a header would start another header: such fields are not sent.
            guard !name.contains(where: \.isNewline), !value.contains(where: \.isNewline) else { continue }
            // "Name;" is libcurl's way of sending a field with an empty value; "Name:" removes one.
            let line = value.isEmpty ? (name == "Expect" ? "Expect:" : "\(name);") : "\(name): \(value)"
            list = line.withCString { curl_slist_append(list, $0) } ?? list
        }
        headerList = list
        cic_curl_set_pointer(easy, CURLOPT_HTTPHEADER, list)
    }

    private static func configure(
        _ easy: UnsafeMutableRawPointer, credential: URLCredential, status: Int, method: String
    ) {
        let user = credential.user ?? ""
        let password = credential.password ?? ""
        let isProxy = status == 407
        _ = user.withCString { cic_curl_set_pointer(easy, isProxy ? CURLOPT_PROXYUSERNAME : CURLOPT_USERNAME, $0) }
        _ = password.withCString {
            cic_curl_set_pointer(easy, isProxy ? CURLOPT_PROXYPASSWORD : CURLOPT_PASSWORD, $0)
        }
        // Basic is sent with the request; other schemes are negotiated by libcurl.
        let schemes = method == NSURLAuthenticationMethodHTTPBasic ? cic_curl_auth_basic() : cic_curl_auth_any()
        cic_curl_set_long(easy, isProxy ? CURLOPT_PROXYAUTH : CURLOPT_HTTPAUTH, schemes)
    }

    private static let userAgent = "Comet (libcurl/\(String(cString: cic_curl_version())))"

    // MARK: libcurl's callbacks

    /// One line of a response head.
    fileprivate func headerLine(_ line: UnsafeRawBufferPointer) -> Bool {
        if isCancelRequested { return false }
        lastActivity = Self.now()
        guard head.consume(line) else { return true }
        switch lifecycle.headReceived(
            status: head.status, location: head.location, contentLength: head.contentLength,
            retryAfter: head.retryAfterSeconds,
            negotiates: credential.map { $0.method != NSURLAuthenticationMethodHTTPBasic } ?? false)
        {
        case .accept:
            guard let url = request.url else { return false }
            response = head.response(for: url)
            if let length = head.identityLength {
                let limit = min(settings.maximumResponseDataSize ?? Int.max, BodyBuffer.reservationLimit)
                body.reserve(Int(min(length, Int64(limit))))
            }
            lastDelivery = lastActivity
            return true
        case .discard, .ignore:
            return true
        case .fail:
            return false
        }
    }

    /// Body bytes.
    fileprivate func bodyBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if isCancelRequested { return false }
        let now = Self.now()
        lastActivity = now
        switch lifecycle.bodyReceived(bytes.count) {
        case .drop:
            return true
        case .abort:
            return false
        case .append:
            guard let response, let handlers else { return false }
            switch delivery {
            case .eachChunk:
                hasDelivered = true
                handlers.didReceiveData(Data(bytes), response)
            case .batched:
                body.append(bytes)
                if now &- lastDelivery >= Self.batchInterval {
                    lastDelivery = now
                    hasDelivered = true
                    handlers.didReceiveData(body.take(), response)
                }
            }
            return true
        }
    }

    // MARK: Ends

    /// The running attempt ended with `code` (its handle is already removed).
    func attemptEnded(_ code: CURLcode, message: String) -> NextStep {
        if isCancelRequested { return stop(URLError(.cancelled)) }
        let error = code == CURLE_OK ? nil : transportError(code, message: message)
        switch lifecycle.attemptEnded(error: error) {
        case .deliver:
            deliverRest()
            return complete(nil)
        case .fail(let error):
            return complete(error)
        case .deliverThenFail(let error):
            if !body.isEmpty { deliverRest() }
            return complete(error)
        case .redirect(let location, let status):
            return redirect(to: location, status: status)
        case .askForCredential(let status):
            return .askForCredential(challenge(status: status))
        case .ignore:
            return .completed
        }
    }

    /// The credential provider's answer to a `status` challenge.
    func credentialAnswered(_ answer: URLCredential?, to challenge: URLAuthenticationChallenge) -> NextStep {
        let status = (challenge.failureResponse as? HTTPURLResponse)?.statusCode ?? 401
        if isCancelRequested { return stop(URLError(.cancelled)) }
        switch lifecycle.credentialAnswered(hasCredential: answer != nil, status: status) {
        case .retry:
            credential = answer.map { ($0, status, challenge.protectionSpace.authenticationMethod) }
            return .attemptAgain
        case .fail(let error):
            return complete(error)
        case .ignore:
            return .completed
        }
    }

    /// Ends the load with `error` (cancelled, timed out, the attempt could not start, shutdown).
    /// A timeout mid-body hands over what arrived first (kept for resuming); a cancelled load
    /// delivers nothing more.
    @discardableResult
    func stop(_ error: any Error) -> NextStep {
        let wasReceiving = lifecycle.phase == .receiving
        guard case .fail(let error) = lifecycle.stop(error) else { return .completed }
        if wasReceiving, !isCancelRequested, (error as? URLError)?.code != .cancelled, !body.isEmpty { deliverRest() }
        return complete(error)
    }

    private func redirect(to location: String, status: Int) -> NextStep {
        guard let current = request.url, let target = URL(string: location, relativeTo: current)?.absoluteURL else {
            guard case .fail(let error) = lifecycle.redirectRefused(URLError(.badServerResponse)) else {
                return .completed
            }
            return complete(error)
        }
        var proposed = request
        proposed.url = target
        let method = (request.httpMethod ?? "GET").uppercased()
        if status == 303 && method != "HEAD" || (status == 301 || status == 302) && method == "POST" {
            proposed.httpMethod = "GET"
            proposed.httpBody = nil
            proposed.setValue(nil, forHTTPHeaderField: "Content-Type")
            proposed.setValue(nil, forHTTPHeaderField: "Content-Length")
        }
        switch settings.redirectPolicy.decide(from: current, original: originalRequest.url, to: proposed) {
        case .follow(let next):
            // A credential answered one origin's challenge: it does not follow to another.
            if let next = next.url, !RedirectPolicy.isSameOrigin(current, next) { credential = nil }
            request = next
            return .attemptAgain
        case .refuse:
            let refusal = DataLoaderError.insecureRedirect(from: current, to: target)
            guard case .fail(let error) = lifecycle.redirectRefused(refusal) else { return .completed }
            return complete(error)
        }
    }

    private func deliverRest() {
        guard let handlers, let response else { return }
        if !body.isEmpty || !hasDelivered {
            // The whole body at once when nothing went before (no copy), or the rest; an empty
            // body still brings its response.
            handlers.didReceiveData(body.take(), response)
        }
    }

    private func complete(_ error: (any Error)?) -> NextStep {
        let handlers = self.handlers
        self.handlers = nil
        body = BodyBuffer()
        handlers?.completion(error)
        return .completed
    }

    /// The error of a failed attempt, as URLSession on Linux reports the same libcurl failures.
    private func transportError(_ code: CURLcode, message: String) -> any Error {
        if code == CURLE_PARTIAL_FILE, let expected = head.identityLength {
            return DataLoaderError.incompleteBody(received: lifecycle.received, expected: Int(expected))
        }
        return URLError(curlCode: code, message: message, url: request.url)
    }

    private func challenge(status: Int) -> URLAuthenticationChallenge {
        AuthenticationChallenge.make(
            url: request.url, status: status, header: head.challenge, response: request.url.flatMap(head.response))
    }

    // MARK: Time

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        seconds <= 0 ? 0 : UInt64(min(seconds, 1e9) * 1e9)
    }

    private static func milliseconds(_ seconds: TimeInterval) -> Int {
        max(1, Int(min(seconds, 1e9) * 1000))
    }
}

// libcurl's write and header callbacks: the context is the transfer (kept alive by the driver
// while its handle runs). Returning less than `size * count` makes libcurl stop the attempt.

private func curlTransferBody(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return transfer.bodyBytes(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private func curlTransferHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return transfer.headerLine(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}
