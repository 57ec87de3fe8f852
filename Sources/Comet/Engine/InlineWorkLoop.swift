import Dispatch
#if canImport(Glibc)
    import Glibc
#endif

/// The light work one thread runs inline, after leaving a graph (any pipeline's), in a flat loop: a
/// graph entry made by that work (a decode's result entering the graph) adds its own light work
/// to the loop instead of starting a nested one, so the stack stays flat however many light
/// items follow each other. Only this thread's own items run here: taking another thread's
/// (handed out while that thread is still in its graph) would finish that thread's request here,
/// and resuming its caller from here costs a thread wake-up. A batch of several items (many
/// requests finishing together) is split with one worker, so both cores share it for one
/// thread wake-up rather than one per item.
///
/// Thread-local (one per thread, made on first use, released when the thread exits).
final class InlineWorkLoop {
    private var isLooping = false
    private var pending: [PipelineExecutor.InlineWorkItem] = []
    /// An empty buffer, with capacity, to swap into an executor's state.
    private var spare: [PipelineExecutor.InlineWorkItem] = []

    /// The smallest batch of light work worth a second thread.
    private static let splitBatchCount = 4

    func takeSpareBuffer() -> [PipelineExecutor.InlineWorkItem] {
        var buffer: [PipelineExecutor.InlineWorkItem] = []
        swap(&buffer, &spare)
        return buffer
    }

    /// Runs `batch` (then keeps its emptied buffer), or adds it to the loop this thread is in.
    func run(_ batch: [PipelineExecutor.InlineWorkItem]) {
        var batch = batch
        if batch.isEmpty {
            spare = batch
        } else if isLooping {
            pending.append(contentsOf: batch)
            batch.removeAll(keepingCapacity: true)
            spare = batch
        } else {
            loop(batch)
        }
    }

    private func loop(_ first: [PipelineExecutor.InlineWorkItem]) {
        isLooping = true
        var batch = first
        while !batch.isEmpty {
            if batch.count >= Self.splitBatchCount {
                let shared = Array(batch[(batch.count / 2)...])
                batch.removeLast(shared.count)
                DispatchQueue.global(qos: .userInitiated).async { InlineWorkLoop.ofThisThread.run(shared) }
            }
            for work in batch { work.run() }
            batch.removeAll(keepingCapacity: true)
            swap(&batch, &pending)
        }
        isLooping = false
        // Keep the buffer with room as the spare (the other, empty too, stays for the next loop).
        if pending.capacity > batch.capacity { swap(&batch, &pending) }
        spare = batch
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<InlineWorkLoop>.fromOpaque(pointer).release() }
        }
        return key
    }()

    static var ofThisThread: InlineWorkLoop {
        if let existing = pthread_getspecific(key) {
            return Unmanaged<InlineWorkLoop>.fromOpaque(existing).takeUnretainedValue()
        }
        let made = InlineWorkLoop()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }
}
