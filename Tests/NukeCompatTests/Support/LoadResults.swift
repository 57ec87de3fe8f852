import CometTestSupport
import Foundation
import NukeCompat

/// Waits (bounded) for a promise to resolve; `nil` when it did not in time.
func resolution<T>(of promise: Promise<T>, within seconds: Double = 120) async -> PromiseResolution<T>? {
    _ = await eventually(within: seconds) { promise.resolution != nil }
    return promise.resolution
}

/// A loader over Comet's network stack with its own cache, like `Loader.shared` but private to
/// a test.
func makeLoader(cache: Cache? = Cache(costLimit: 1 << 26)) -> Loader {
    Loader(loader: DataLoader(), decoder: DataDecoder(), cache: cache)
}
