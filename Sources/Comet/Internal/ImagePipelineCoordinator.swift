import Dispatch
import Synchronization

/// Makes the serial queue that owns one pipeline's task graph: its jobs, work queues and rate
/// limiter are only touched on it, so they need no locks. Each pipeline has its own, so a busy
/// pipeline never delays another. Nothing heavy runs on it: decoding, processing, disk I/O and
/// loader calls are dispatched to other queues.
enum ImagePipelineCoordinator {
    private static let counter = Atomic<Int>(0)

    static func makeQueue() -> DispatchQueue {
        let number = counter.add(1, ordering: .relaxed).newValue
        return DispatchQueue(label: "com.comet.pipeline.coordinator.\(number)", qos: .userInitiated)
    }
}
