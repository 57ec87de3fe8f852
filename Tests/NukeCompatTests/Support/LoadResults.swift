import Foundation
import NukeCompat

/// Waits (bounded) for a promise to resolve, polling; `nil` when it did not in time.
func resolution<T>(of promise: Promise<T>, within seconds: Double = 15) async -> PromiseResolution<T>? {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if let resolution = promise.resolution { return resolution }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return promise.resolution
}

/// A loader over Comet's network stack with its own cache, like `Loader.shared` but private to
/// a test.
func makeLoader(cache: Cache? = Cache(costLimit: 1 << 26)) -> Loader {
    Loader(loader: DataLoader(), decoder: DataDecoder(), cache: cache)
}
