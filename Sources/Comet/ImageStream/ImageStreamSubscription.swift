import Locking
import Dispatch

/// The subscription of an ``ImageStream`` that loads: starts an ``ImageTask`` on the first
/// demand and forwards its previews and result, following the demand rule documented on
/// ``ImageStream``.
///
/// Thread-safety: state lives in a lock that is never held while calling the downstream or the
/// task. Values and completions are delivered from the pipeline's (serial) callback queue only,
/// including a held-back preview released by `request(_:)`, so calls to the downstream never
/// overlap. The task's closures keep the subscription alive until the task finishes (it
/// finishes, releasing them, on completion or cancel).
final class ImageStreamSubscription<Downstream: Subscriber>: Subscription, ImageStreamEvents, CustomStringConvertible,
    @unchecked Sendable
where Downstream.Input == ImageResponse, Downstream.Failure == ImagePipeline.Error {
    // @unchecked Sendable: its state is behind `state`'s lock; the downstream is called outside it.
    private struct State {
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        var isStarted = false
        var isTerminated = false
        var task: ImageTask?
        /// A preview that arrived while demand was below 2.
        var heldPreview: ImageResponse?
        /// The final image, if it arrived with no demand (cannot happen once started with the
        /// demand rule, kept for robustness).
        var heldFinal: ImageResponse?

        /// Demand allows a preview: at least 2, so one unit stays for the final image.
        var allowsPreview: Bool { demand >= .max(2) }
    }

    private enum RequestAction {
        case none, start, releasePreview, deliverFinal(ImageResponse)
    }

    private let request: ImageRequest
    private let pipeline: ImagePipeline
    private let state: Locked<State>

    init(request: ImageRequest, pipeline: ImagePipeline, downstream: Downstream) {
        self.request = request
        self.pipeline = pipeline
        self.state = Locked(State(downstream: downstream))
    }

    var description: String { "ImageStream(\(request))" }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        let action = state.withLock { state -> RequestAction in
            guard !state.isTerminated else { return .none }
            state.demand += demand
            if !state.isStarted {
                state.isStarted = true
                return .start
            }
            if let final = state.heldFinal {
                state.heldFinal = nil
                return .deliverFinal(final)
            }
            return state.heldPreview != nil && state.allowsPreview ? .releasePreview : .none
        }
        switch action {
        case .none:
            break
        case .start:
            start()
        case .releasePreview:
            let events: any ImageStreamEvents = self
            pipeline.configuration.callbackQueue.async { events.releaseHeldPreview() }
        case .deliverFinal(let response):
            let events: any ImageStreamEvents = self
            pipeline.configuration.callbackQueue.async { events.deliverFinal(response) }
        }
    }

    func cancel() {
        let (task, downstream) = state.withLock { state -> (ImageTask?, Downstream?) in
            state.isTerminated = true
            state.heldPreview = nil
            state.heldFinal = nil
            defer {
                state.task = nil
                state.downstream = nil
            }
            return (state.task, state.downstream)
        }
        task?.cancel()
        _ = downstream  // released outside the lock
    }

    // MARK: Loading

    private func start() {
        let events: any ImageStreamEvents = self  // captured without the generic metatype
        let progress: (@Sendable (ImageResponse?, ImageTask.Progress) -> Void)?
        if pipeline.configuration.isProgressiveDecodingEnabled {
            progress = { preview, _ in
                if let preview { events.receivePreview(preview) }
            }
        } else {
            progress = nil  // no hop to the callback queue per received chunk
        }
        let task = pipeline.loadImage(with: request, progress: progress) { result in
            events.receive(result)
        }
        let isTerminated = state.withLock { state -> Bool in
            if !state.isTerminated { state.task = task }
            return state.isTerminated
        }
        if isTerminated { task.cancel() }  // cancelled while starting
    }

    /// A preview from the task (callback queue).
    func receivePreview(_ preview: ImageResponse) {
        let downstream = state.withLock { state -> Downstream? in
            guard !state.isTerminated, let downstream = state.downstream else { return nil }
            guard state.allowsPreview else {
                state.heldPreview = preview
                return nil
            }
            state.heldPreview = nil
            state.demand -= 1
            return downstream
        }
        guard let downstream else { return }
        addDemand(downstream.receive(preview))
    }

    /// Delivers the held-back preview if demand still allows (callback queue).
    func releaseHeldPreview() {
        let ready = state.withLock { state -> (Downstream, ImageResponse)? in
            guard !state.isTerminated, let downstream = state.downstream, let preview = state.heldPreview,
                state.allowsPreview
            else { return nil }
            state.heldPreview = nil
            state.demand -= 1
            return (downstream, preview)
        }
        guard let (downstream, preview) = ready else { return }
        addDemand(downstream.receive(preview))
    }

    /// The task's result (callback queue).
    func receive(_ result: Result<ImageResponse, ImagePipeline.Error>) {
        switch result {
        case .success(let response):
            deliverFinal(response)
        case .failure(let error):
            let downstream = state.withLock { state -> Downstream? in
                guard !state.isTerminated else { return nil }
                state.isTerminated = true
                state.task = nil
                state.heldPreview = nil
                defer { state.downstream = nil }
                return state.downstream
            }
            downstream?.receive(completion: .failure(error))
        }
    }

    /// Sends the final image and `.finished`, or holds the image until there is demand.
    func deliverFinal(_ response: ImageResponse) {
        let downstream = state.withLock { state -> Downstream? in
            guard !state.isTerminated, let downstream = state.downstream else { return nil }
            state.heldPreview = nil
            state.task = nil
            guard state.demand > 0 else {
                state.heldFinal = response
                return nil
            }
            state.demand -= 1
            return downstream
        }
        guard let downstream else { return }
        _ = downstream.receive(response)
        let live = state.withLock { state -> Bool in
            defer {
                state.isTerminated = true
                state.downstream = nil
            }
            return !state.isTerminated
        }
        if live { downstream.receive(completion: .finished) }
    }

    private func addDemand(_ extra: Subscribers.Demand) {
        guard extra > 0 else { return }
        state.withLock { $0.demand += extra }
    }
}

/// What an ``ImageStreamSubscription`` receives from its task and the callback queue; lets the
/// `@Sendable` closures capture the subscription without its generic `Downstream` type.
protocol ImageStreamEvents: AnyObject, Sendable {
    /// A progressive preview (callback queue).
    func receivePreview(_ preview: ImageResponse)
    /// Delivers the held-back preview if demand allows (callback queue).
    func releaseHeldPreview()
    /// The task's result (callback queue).
    func receive(_ result: Result<ImageResponse, ImagePipeline.Error>)
    /// Delivers the final image (callback queue).
    func deliverFinal(_ response: ImageResponse)
}
