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
    Sendable
where Downstream.Input == ImageResponse, Downstream.Failure == ImagePipeline.Error {
    // The downstream (not Sendable: Combine's protocols are not) lives in `state`'s lock and is
    // called outside it.
    private struct State {
        var phase = Phase.idle
        var downstream: Downstream?
        /// Demand beyond the unit the first request set aside for the final image: what previews
        /// may use. The final image always has its unit, so it is never held back.
        var previewDemand = Subscribers.Demand.none
        /// A preview that arrived while ``previewDemand`` was zero.
        var heldPreview: ImageResponse?

        var isTerminated: Bool {
            if case .terminated = phase { return true }
            return false
        }
    }

    private enum Phase {
        /// No demand yet: nothing started.
        case idle
        /// The task runs (`nil` for the moment between its start and its assignment).
        case loading(ImageTask?)
        /// The final image is being delivered.
        case deliveringFinal
        /// Finished, failed or cancelled.
        case terminated
    }

    private enum RequestAction {
        case none, start, releasePreview
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
            switch state.phase {
            case .idle:
                state.phase = .loading(nil)
                state.previewDemand = demand - 1  // one unit is the final image's
                return .start
            case .loading:
                state.previewDemand += demand
                return state.heldPreview != nil ? .releasePreview : .none
            case .deliveringFinal, .terminated:
                return .none
            }
        }
        switch action {
        case .none:
            break
        case .start:
            start()
        case .releasePreview:
            let events: any ImageStreamEvents = self
            pipeline.configuration.callbackQueue.async { events.releaseHeldPreview() }
        }
    }

    func cancel() {
        let (task, downstream) = state.withLock { state -> (ImageTask?, Downstream?) in
            var task: ImageTask?
            if case .loading(let loading) = state.phase { task = loading }
            state.phase = .terminated
            state.heldPreview = nil
            defer { state.downstream = nil }
            return (task, state.downstream)
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
            guard case .loading = state.phase else { return true }
            state.phase = .loading(task)
            return false
        }
        if isTerminated { task.cancel() }  // cancelled while starting (or finished at once: a no-op)
    }

    /// A preview from the task (callback queue).
    func receivePreview(_ preview: ImageResponse) {
        let downstream = state.withLock { state -> Downstream? in
            guard !state.isTerminated, let downstream = state.downstream else { return nil }
            guard state.previewDemand > 0 else {
                state.heldPreview = preview
                return nil
            }
            state.heldPreview = nil
            state.previewDemand -= 1
            return downstream
        }
        guard let downstream else { return }
        addDemand(downstream.receive(preview))
    }

    /// Delivers the held-back preview if demand still allows (callback queue).
    func releaseHeldPreview() {
        let ready = state.withLock { state -> (Downstream, ImageResponse)? in
            guard !state.isTerminated, let downstream = state.downstream, let preview = state.heldPreview,
                state.previewDemand > 0
            else { return nil }
            state.heldPreview = nil
            state.previewDemand -= 1
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
                state.phase = .terminated
                state.heldPreview = nil
                defer { state.downstream = nil }
                return state.downstream
            }
            downstream?.receive(completion: .failure(error))
        }
    }

    /// Sends the final image, on the unit of demand set aside for it, then `.finished`.
    private func deliverFinal(_ response: ImageResponse) {
        let downstream = state.withLock { state -> Downstream? in
            guard !state.isTerminated, let downstream = state.downstream else { return nil }
            state.heldPreview = nil
            state.phase = .deliveringFinal
            return downstream
        }
        guard let downstream else { return }
        _ = downstream.receive(response)
        let live = state.withLock { state -> Bool in
            defer {
                state.phase = .terminated
                state.downstream = nil
            }
            return !state.isTerminated
        }
        if live { downstream.receive(completion: .finished) }
    }

    private func addDemand(_ extra: Subscribers.Demand) {
        guard extra > 0 else { return }
        state.withLock { $0.previewDemand += extra }
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
}
