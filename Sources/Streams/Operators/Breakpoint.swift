#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Publishers {
    /// A publisher that raises a debugger signal (`SIGTRAP`) when a provided closure needs to
    /// stop the process in the debugger. Events pass through unchanged.
    ///
    /// Without a debugger attached, `SIGTRAP` ends the process: use it while debugging only.
    public struct Breakpoint<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that executes when the publisher receives a subscription; `true` stops.
        public let receiveSubscription: ((Subscription) -> Bool)?
        /// A closure that executes when the publisher receives a value; `true` stops.
        public let receiveOutput: ((Upstream.Output) -> Bool)?
        /// A closure that executes when the publisher receives a completion; `true` stops.
        public let receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?

        /// Creates a breakpoint publisher with the provided closures (`nil`: never stop).
        public init(
            upstream: Upstream,
            receiveSubscription: ((Subscription) -> Bool)? = nil,
            receiveOutput: ((Upstream.Output) -> Bool)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        /// Subscribes to the upstream through a layer that evaluates the closures. As in
        /// Combine, it passes the upstream's subscription through and every event on.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                Inner(
                    downstream: subscriber,
                    receiveSubscription: receiveSubscription,
                    receiveOutput: receiveOutput,
                    receiveCompletion: receiveCompletion
                )
            )
        }

        /// Stateless: it checks each event, then passes it on.
        private struct Inner<Downstream: Subscriber>: Subscriber, CombineReflectable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            let downstream: Downstream
            let receiveSubscription: ((Subscription) -> Bool)?
            let receiveOutput: ((Upstream.Output) -> Bool)?
            let receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?
            let combineIdentifier = CombineIdentifier()

            var description: String { "Breakpoint" }

            func receive(subscription: Subscription) {
                if receiveSubscription?(subscription) == true { breakIntoDebugger() }
                downstream.receive(subscription: subscription)
            }

            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                if receiveOutput?(input) == true { breakIntoDebugger() }
                return downstream.receive(input)
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                if receiveCompletion?(completion) == true { breakIntoDebugger() }
                downstream.receive(completion: completion)
            }
        }
    }
}

extension Publisher {
    /// Raises a debugger signal when a provided closure needs to stop the process in the
    /// debugger.
    public func breakpoint(
        receiveSubscription: ((Subscription) -> Bool)? = nil,
        receiveOutput: ((Output) -> Bool)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) -> Publishers.Breakpoint<Self> {
        Publishers.Breakpoint(
            upstream: self,
            receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion
        )
    }

    /// Raises a debugger signal upon receiving a failure.
    public func breakpointOnError() -> Publishers.Breakpoint<Self> {
        breakpoint(receiveCompletion: { completion in
            if case .failure = completion { return true }
            return false
        })
    }
}

/// Stops in the debugger as Combine's breakpoint does: raises `SIGTRAP`. Under a debugger the
/// process stops there and goes on when continued. Without one, Darwin ends the process; on
/// Linux the Swift runtime's crash reporter handles the signal, prints a backtrace and returns,
/// so the default action is then restored and the signal raised again: the process ends with
/// `SIGTRAP`, as on Darwin.
func breakIntoDebugger() {
    raise(SIGTRAP)
    #if os(Linux)
        guard !isBeingTraced() else { return }
        signal(SIGTRAP, SIG_DFL)
        raise(SIGTRAP)
    #endif
}

#if os(Linux)
    /// Whether a debugger is attached (`TracerPid` in `/proc/self/status` is not 0).
    private func isBeingTraced() -> Bool {
        guard let file = fopen("/proc/self/status", "r") else { return false }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("TracerPid:") {
                return Int(String(text.dropFirst("TracerPid:".count).filter(\.isNumber))).map { $0 != 0 } ?? false
            }
        }
        return false
    }
#endif
