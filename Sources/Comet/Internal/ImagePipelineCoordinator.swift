import Dispatch

/// The one serial queue that owns the task graph of every pipeline: jobs, work queues and rate
/// limiters are only touched on it, so they need no locks. Nothing heavy runs on it: decoding,
/// processing, disk I/O and loader calls are dispatched to other queues.
enum ImagePipelineCoordinator {
    static let queue = DispatchQueue(label: "com.comet.pipeline.coordinator", qos: .userInitiated)
}
