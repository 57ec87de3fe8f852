import CCurl
import Foundation
import Locking
import Synchronization
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The thread that runs a ``DataLoader``'s HTTP(S) transfers on libcurl's multi interface.
///
/// One thread owns the multi handle, the easy handles and every running ``CurlTransfer``: it
/// waits in `curl_multi_poll` until a socket is ready, a deadline passes, or another thread
/// posts a command (start, cancel, a credential, shutdown) and wakes it with
/// `curl_multi_wakeup`. With nothing to do it sleeps without a timeout, so an idle loader costs
/// no CPU. Easy handles are reset and reused (up to ``handlePoolLimit``), and the multi handle's
/// connection cache keeps connections alive between transfers.
///
/// Thread-safe: `start`, `cancel` and `shutdown` may be called from any thread, including
/// from inside a transfer's callbacks (they only post a command).
final class CurlDriver: @unchecked Sendable {
    // @unchecked: the multi handle and everything below "Poll thread" are touched only on the
    // poll thread; other threads reach the driver through `commands` and `curl_multi_wakeup`
    // (which libcurl documents as callable from any thread).

    private enum Command {
        case start(CurlTransfer)
        case cancel(CurlTransfer)
        case credential(CurlTransfer, URLCredential?, CredentialQuestion)
        case shutdown
    }

    /// An easy handle and its error-message buffer.
    private struct EasyHandle {
        let handle: UnsafeMutableRawPointer
        let errorBuffer: UnsafeMutablePointer<CChar>
    }

    /// The most idle easy handles kept for reuse.
    static let handlePoolLimit = 32
    /// The most idle connections kept open. libcurl's default follows the number of handles
    /// added at the moment, which falls when transfers end, so it would close connections the
    /// next burst needs.
    static let connectionCacheLimit = 64

    /// Connections opened so far (a transfer that reused one opened none).
    let connectionsOpened = Atomic<Int>(0)

    private let multi: UnsafeMutableRawPointer
    /// Commands for the poll thread; closed (nothing more is taken, and the multi handle is
    /// gone) once the thread has shut down.
    private struct Inbox {
        var commands: [Command] = []
        var isClosed = false
    }

    private let inbox = Locked(Inbox())
    private let credentialProvider: (@Sendable (URLAuthenticationChallenge, URLRequest?) -> URLCredential?)?
    private let idleTimeout: UInt64

    // Poll thread
    private var running: [ObjectIdentifier: (transfer: CurlTransfer, easy: EasyHandle?)] = [:]
    private var idleHandles: [EasyHandle] = []
    private var isShuttingDown = false

    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

    /// Starts the poll thread. `nil` if libcurl cannot make a multi handle.
    static func start(configuration: DataLoader.Configuration) -> CurlDriver? {
        guard globalInit, let multi = curl_multi_init() else { return nil }
        let driver = CurlDriver(multi: multi, configuration: configuration)
        let thread = Thread { driver.run() }
        thread.qualityOfService = .userInitiated
        thread.start()
        return driver
    }

    private init(multi: UnsafeMutableRawPointer, configuration: DataLoader.Configuration) {
        self.multi = multi
        cic_curl_multi_set_long(multi, CURLMOPT_MAXCONNECTS, Self.connectionCacheLimit)
        self.credentialProvider = configuration.credentialProvider
        self.idleTimeout = CurlTransfer.nanoseconds(configuration.timeoutForRequest)
    }

    func start(_ transfer: CurlTransfer) { post(.start(transfer)) }

    func cancel(_ transfer: CurlTransfer) { post(.cancel(transfer)) }

    /// Ends the thread: running transfers complete as cancelled.
    func shutdown() { post(.shutdown) }

    private func post(_ command: Command) {
        let refused: Command? = inbox.withLock { inbox in
            guard !inbox.isClosed else { return command }
            inbox.commands.append(command)
            // Under the lock, so the multi handle cannot be cleaned up meanwhile (the wakeup is
            // a write to libcurl's socket pair, it calls nothing back).
            curl_multi_wakeup(multi)
            return nil
        }
        if case .start(let transfer)? = refused { transfer.stop(URLError(.cancelled)) }
    }

    // MARK: Poll thread

    private func run() {
        cic_name_current_thread("comet.curl")
        var pending: [Command] = []
        while true {
            inbox.withLock { inbox in swap(&inbox.commands, &pending) }
            for command in pending { perform(command) }
            pending.removeAll(keepingCapacity: true)
            if isShuttingDown { return close() }
            var stillRunning: Int32 = 0
            curl_multi_perform(multi, &stillRunning)
            collectFinished()
            let now = CurlTransfer.now()
            expire(now: now)
            var ready: Int32 = 0
            curl_multi_poll(multi, nil, 0, waitMilliseconds(now: now), &ready)
        }
    }

    private func perform(_ command: Command) {
        switch command {
        case .start(let transfer):
            if isShuttingDown {
                transfer.stop(URLError(.cancelled))
            } else {
                running[ObjectIdentifier(transfer)] = (transfer, nil)
                attach(transfer)
            }
        case .cancel(let transfer):
            guard let entry = running.removeValue(forKey: ObjectIdentifier(transfer)) else { return }
            if let easy = entry.easy { detach(easy) }
            transfer.stop(URLError(.cancelled))
        case .credential(let transfer, let credential, let question):
            guard running[ObjectIdentifier(transfer)] != nil else { return }
            follow(transfer.credentialAnswered(credential, to: question.challenge), of: transfer)
        case .shutdown:
            isShuttingDown = true
        }
    }

    /// Starts an attempt of `transfer` on a pooled or new easy handle.
    private func attach(_ transfer: CurlTransfer) {
        guard let easy = idleHandles.popLast() ?? makeHandle() else {
            return end(transfer, URLError(.unknown))
        }
        easy.errorBuffer[0] = 0
        if let error = transfer.configure(easy.handle) {
            recycle(easy)
            return end(transfer, error)
        }
        cic_curl_set_pointer(easy.handle, CURLOPT_ERRORBUFFER, easy.errorBuffer)
        guard curl_multi_add_handle(multi, easy.handle) == CURLM_OK else {
            recycle(easy)
            return end(transfer, URLError(.unknown))
        }
        running[ObjectIdentifier(transfer)] = (transfer, easy)
    }

    private func end(_ transfer: CurlTransfer, _ error: any Error) {
        running.removeValue(forKey: ObjectIdentifier(transfer))
        transfer.stop(error)
    }

    private func collectFinished() {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            var handle: UnsafeMutableRawPointer?
            var code = CURLE_OK
            guard cic_curl_message_done(message, &handle, &code) != 0, let handle,
                let context = cic_curl_private(handle)
            else { continue }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            guard let entry = running[ObjectIdentifier(transfer)], let easy = entry.easy else { continue }
            let text = String(cString: easy.errorBuffer)
            connectionsOpened.add(cic_curl_num_connects(handle), ordering: .relaxed)
            running[ObjectIdentifier(transfer)] = (transfer, nil)
            detach(easy)
            follow(transfer.attemptEnded(code, message: text), of: transfer)
        }
    }

    private func follow(_ step: CurlTransfer.NextStep, of transfer: CurlTransfer) {
        switch step {
        case .completed:
            running.removeValue(forKey: ObjectIdentifier(transfer))
        case .attemptAgain:
            attach(transfer)
        case .askForCredential(let challenge):
            guard let credentialProvider else {
                return follow(transfer.credentialAnswered(nil, to: challenge), of: transfer)
            }
            // The provider is the adopter's code: it runs on a worker, never on the poll thread.
            let question = CredentialQuestion(challenge: challenge, request: transfer.originalRequest)
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                let answer = credentialProvider(question.challenge, question.request)
                post(.credential(transfer, answer, question))
            }
        }
    }

    /// Ends the attempts that waited too long for a byte, or whose load ran out of time.
    private func expire(now: UInt64) {
        var expired: [(CurlTransfer, EasyHandle)] = []
        for (_, entry) in running {
            guard let easy = entry.easy else { continue }
            if now >= entry.transfer.lastActivity &+ idleTimeout || now >= entry.transfer.resourceDeadline {
                expired.append((entry.transfer, easy))
            }
        }
        for (transfer, easy) in expired {
            detach(easy)
            end(transfer, URLError(.timedOut))
        }
    }

    /// How long to sleep: until libcurl's next timer or the nearest deadline; without either,
    /// until woken.
    private func waitMilliseconds(now: UInt64) -> Int32 {
        var curlTimeout = -1
        curl_multi_timeout(multi, &curlTimeout)
        var wait = curlTimeout >= 0 ? UInt64(curlTimeout) : UInt64(Int32.max)
        for (_, entry) in running where entry.easy != nil {
            let deadline = min(entry.transfer.lastActivity &+ idleTimeout, entry.transfer.resourceDeadline)
            let remaining = deadline > now ? (deadline - now + 999_999) / 1_000_000 : 0
            wait = min(wait, remaining)
        }
        return Int32(min(wait, UInt64(Int32.max)))
    }

    private func makeHandle() -> EasyHandle? {
        guard let handle = curl_easy_init() else { return nil }
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        buffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        return EasyHandle(handle: handle, errorBuffer: buffer)
    }

    private func detach(_ easy: EasyHandle) {
        curl_multi_remove_handle(multi, easy.handle)
        recycle(easy)
    }

    private func recycle(_ easy: EasyHandle) {
        guard idleHandles.count < Self.handlePoolLimit else { return destroy(easy) }
        // Reset clears the options; the connection stays in the multi handle's cache.
        curl_easy_reset(easy.handle)
        idleHandles.append(easy)
    }

    private func destroy(_ easy: EasyHandle) {
        curl_easy_cleanup(easy.handle)
        easy.errorBuffer.deallocate()
    }

    private func close() {
        let left = running.values
        running.removeAll()
        for entry in left {
            if let easy = entry.easy { detach(easy) }
            entry.transfer.stop(URLError(.cancelled))
        }
        for easy in idleHandles { destroy(easy) }
        idleHandles.removeAll()
        // Whatever was posted after the shutdown was seen ends too, and nothing more is taken.
        let late = inbox.withLock { inbox in
            inbox.isClosed = true
            return inbox.commands
        }
        for case .start(let transfer) in late { transfer.stop(URLError(.cancelled)) }
        curl_multi_cleanup(multi)
    }
}

/// A challenge and its request on their way to the credential provider. `@unchecked Sendable`:
/// neither is mutated after it is made, and the provider receives them as the delegate-based
/// loader did.
private struct CredentialQuestion: @unchecked Sendable {
    let challenge: URLAuthenticationChallenge
    let request: URLRequest
}
