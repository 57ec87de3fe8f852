import Foundation
import Comet

/// The `Nuke.` qualifier of legacy code, and the shim's one setting.
///
/// Nuke 4 code often names its module: `Nuke.loadImage(with:into:)`, `Nuke.Cache.shared`.
/// The shim's module is called `NukeCompat`, so this namespace lets those call sites compile
/// unchanged: its functions forward to the module's free functions and its type aliases name
/// the module's types.
public enum Nuke {
    private static let queue = LockedValue(DispatchQueue.main)

    /// The queue the shim calls back on by default: every `Promise` method's `on:` default,
    /// `Manager`'s handlers and targets. Default `.main`, as in Nuke 4.
    ///
    /// On Linux nothing drains the main queue unless the program does: call `dispatchMain()`
    /// (or run a `RunLoop`) in a command-line tool, or set this to another queue, e.g.
    /// `Nuke.callbackQueue = DispatchQueue(label: "images")`. Thread-safe; affects callbacks
    /// registered after the change.
    public static var callbackQueue: DispatchQueue {
        get { queue.current }
        set { queue.current = newValue }
    }

    /// Forwards to the free function: `Manager.shared` loads `url` into `target`.
    public static func loadImage(with url: URL, into target: Target) {
        NukeCompat.loadImage(with: url, into: target)
    }

    /// Forwards to the free function: `Manager.shared` loads `request` into `target`.
    public static func loadImage(with request: Request, into target: Target) {
        NukeCompat.loadImage(with: request, into: target)
    }

    /// Forwards to the free function: `Manager.shared` loads `url` for `target`, calling `handler`.
    public static func loadImage(with url: URL, into target: AnyObject, handler: @escaping Manager.Handler) {
        NukeCompat.loadImage(with: url, into: target, handler: handler)
    }

    /// Forwards to the free function: `Manager.shared` loads `request` for `target`, calling `handler`.
    public static func loadImage(with request: Request, into target: AnyObject, handler: @escaping Manager.Handler) {
        NukeCompat.loadImage(with: request, into: target, handler: handler)
    }

    /// Forwards to the free function: `Manager.shared` cancels the load bound to `target`.
    public static func cancelRequest(for target: AnyObject) {
        NukeCompat.cancelRequest(for: target)
    }

    /// `Nuke.Image`: Comet's bitmap.
    public typealias Image = NukeCompat.Image
    /// `Nuke.Promise`.
    public typealias Promise = NukeCompat.Promise
    /// `Nuke.PromiseResolution`.
    public typealias PromiseResolution = NukeCompat.PromiseResolution
    /// `Nuke.CancellationTokenSource`.
    public typealias CancellationTokenSource = NukeCompat.CancellationTokenSource
    /// `Nuke.CancellationToken`.
    public typealias CancellationToken = NukeCompat.CancellationToken
    /// `Nuke.Request`.
    public typealias Request = NukeCompat.Request
    /// `Nuke.Response`.
    public typealias Response = NukeCompat.Response
    /// `Nuke.Loading`.
    public typealias Loading = NukeCompat.Loading
    /// `Nuke.Loader`.
    public typealias Loader = NukeCompat.Loader
    /// `Nuke.Manager`.
    public typealias Manager = NukeCompat.Manager
    /// `Nuke.Target`.
    public typealias Target = NukeCompat.Target
    /// `Nuke.Preheater`.
    public typealias Preheater = NukeCompat.Preheater
    /// `Nuke.Caching`.
    public typealias Caching = NukeCompat.Caching
    /// `Nuke.Cache`.
    public typealias Cache = NukeCompat.Cache
    /// `Nuke.Deduplicator`.
    public typealias Deduplicator = NukeCompat.Deduplicator
    /// `Nuke.Scheduler`.
    public typealias Scheduler = NukeCompat.Scheduler
    /// `Nuke.AsyncScheduler`.
    public typealias AsyncScheduler = NukeCompat.AsyncScheduler
    /// `Nuke.DispatchQueueScheduler`.
    public typealias DispatchQueueScheduler = NukeCompat.DispatchQueueScheduler
    /// `Nuke.OperationQueueScheduler`.
    public typealias OperationQueueScheduler = NukeCompat.OperationQueueScheduler
    /// `Nuke.RateLimiter`.
    public typealias RateLimiter = NukeCompat.RateLimiter
    /// `Nuke.Processing`.
    public typealias Processing = NukeCompat.Processing
    /// `Nuke.AnyProcessor`.
    public typealias AnyProcessor = NukeCompat.AnyProcessor
    /// `Nuke.ProcessorComposition`.
    public typealias ProcessorComposition = NukeCompat.ProcessorComposition
    /// `Nuke.Decompressor`.
    public typealias Decompressor = NukeCompat.Decompressor
    /// `Nuke.DataLoading`.
    public typealias DataLoading = NukeCompat.DataLoading
    /// `Nuke.DataLoader`.
    public typealias DataLoader = NukeCompat.DataLoader
    /// `Nuke.DataCaching`.
    public typealias DataCaching = NukeCompat.DataCaching
    /// `Nuke.CachingDataLoader`.
    public typealias CachingDataLoader = NukeCompat.CachingDataLoader
    /// `Nuke.DataDecoding`.
    public typealias DataDecoding = NukeCompat.DataDecoding
    /// `Nuke.DataDecoder`.
    public typealias DataDecoder = NukeCompat.DataDecoder
    /// `Nuke.DataDecoderComposition`.
    public typealias DataDecoderComposition = NukeCompat.DataDecoderComposition
}

/// Nuke's image type: Comet's bitmap (`Imaging.Image`), a Sendable value with a known memory
/// cost, where Nuke 4 had `UIImage`/`NSImage`.
public typealias Image = Imaging.Image
