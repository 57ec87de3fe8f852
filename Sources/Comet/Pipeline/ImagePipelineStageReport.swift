import Foundation
import Imaging

extension ImagePipeline {
    /// The work a request's image goes through on the pipeline's workers, as
    /// ``Hooks/stageFinished`` reports it.
    public enum Stage: Sendable, Hashable {
        /// The final decode of the fetched bytes (with the thumbnail's reduction, when the
        /// request asks for one). Progressive previews are not reported.
        case decode
        /// One processor on the final image, named by its `ImageProcessing.identifier`.
        case process(String)
    }

    /// One finished stage: what ran, when, for how long, and what it made.
    public struct StageReport: Sendable {
        /// What ran.
        public var stage: Stage
        /// When it started (wall clock, for placing it on a timeline such as a trace).
        public var start: Date
        /// How long it ran (monotonic clock).
        public var duration: Duration
        /// The size of the image it made; `nil` when it failed.
        public var outputSize: Size?
        /// The bytes it read: the encoded size for a decode, `nil` for a processor.
        public var inputBytes: Int?
        /// Why it failed; `nil` when it succeeded.
        public var error: (any Swift.Error)?

        /// Creates a report.
        public init(
            stage: Stage, start: Date, duration: Duration, outputSize: Size?, inputBytes: Int? = nil,
            error: (any Swift.Error)? = nil
        ) {
            self.stage = stage
            self.start = start
            self.duration = duration
            self.outputSize = outputSize
            self.inputBytes = inputBytes
            self.error = error
        }
    }
}

/// Times a stage for ``ImagePipeline/Hooks/stageFinished`` (made only when the hook is set).
struct StageTimer: Sendable {
    let report: @Sendable (ImageRequest, ImagePipeline.StageReport) -> Void
    let request: ImageRequest
    let stage: ImagePipeline.Stage
    let inputBytes: Int?

    /// `work`, reporting its run.
    func timing<Output, Failure: Swift.Error>(
        _ work: @escaping @Sendable () -> Result<Output, Failure>, size: @escaping @Sendable (Output) -> Size
    ) -> @Sendable () -> Result<Output, Failure> {
        { [self] in
            let start = Date()
            let started = ContinuousClock.now
            let result = work()
            record(result, start: start, duration: ContinuousClock.now - started, size: size)
            return result
        }
    }

    /// `work`, reporting its run only when it returns a result (a light decode that declines
    /// leaves the decode to a worker, which reports it).
    func timingIfDone<Output, Failure: Swift.Error>(
        _ work: @escaping @Sendable () -> Result<Output, Failure>?, size: @escaping @Sendable (Output) -> Size
    ) -> @Sendable () -> Result<Output, Failure>? {
        { [self] in
            let start = Date()
            let started = ContinuousClock.now
            guard let result = work() else { return nil }
            record(result, start: start, duration: ContinuousClock.now - started, size: size)
            return result
        }
    }

    private func record<Output, Failure: Swift.Error>(
        _ result: Result<Output, Failure>, start: Date, duration: Duration,
        size: (Output) -> Size
    ) {
        var made = ImagePipeline.StageReport(
            stage: stage, start: start, duration: duration, outputSize: nil, inputBytes: inputBytes)
        switch result {
        case .success(let output): made.outputSize = size(output)
        case .failure(let error): made.error = error
        }
        report(request, made)
    }
}
