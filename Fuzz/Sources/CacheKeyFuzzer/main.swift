import Comet
import Foundation

// libFuzzer harness for the request → cache-key → file path route. The input becomes two
// hostile strings (URLs or keys) and a processor choice; the oracles:
//   - a memory-cache entry stored for one request is never returned for another request;
//   - disk-cache data stored under one key is never returned for another key;
//   - nothing is ever created outside the cache directories, and nothing but flat files
//     inside them, even with a file-name generator that passes keys through unchanged.
// Crashes (including ASan reports and the preconditions below) are findings.

/// Two caches under a private root on /dev/shm (tmpfs, so each execution stays fast).
let root: String = {
    let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let path = "\(base)/comet-fuzz-keys-\(getpid())"
    try? FileManager.default.removeItem(atPath: path)
    try! FileManager.default.createDirectory(atPath: path + "/sha", withIntermediateDirectories: true)
    try! FileManager.default.createDirectory(atPath: path + "/raw", withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: root) }
    return path
}()

let hashedCache = DataCache(path: URL(fileURLWithPath: root + "/sha"))
// The hostile generator: the key itself is the file name. DataCache must refuse names that are
// not one safe path component.
let rawCache = DataCache(path: URL(fileURLWithPath: root + "/raw"), filenameGenerator: { $0 })
let pipeline = ImagePipeline {
    $0.imageCache = ImageCache()
    $0.dataCache = hashedCache
}

let processorChoices: [[any ImageProcessing]] = [
    [],
    [ImageProcessors.Resize(width: 64)],
    [ImageProcessors.Resize(size: Size(width: 64, height: 64), contentMode: .aspectFill, crop: true)],
    [ImageProcessors.Circle()],
    [ImageProcessors.RoundedCorners(radius: 4)],
]

func request(_ string: String, processors: Int) -> ImageRequest {
    let chosen = processorChoices[processors % processorChoices.count]
    if let url = URL(string: string) { return ImageRequest(url: url, processors: chosen) }
    return ImageRequest(id: string, data: { Data() }, processors: chosen)
}

func marker(_ value: UInt8) -> Image {
    Image(width: 1, height: 1, isOpaque: true, bytes: [value, 0, 0, 255])
}

func checkTree() {
    let fileManager = FileManager.default
    let top = Set((try? fileManager.contentsOfDirectory(atPath: root)) ?? [])
    precondition(top == ["sha", "raw"], "something was created beside the cache directories: \(top)")
    for directory in ["sha", "raw"] {
        for name in (try? fileManager.contentsOfDirectory(atPath: root + "/" + directory)) ?? [] {
            var isDirectory: ObjCBool = false
            _ = fileManager.fileExists(atPath: root + "/" + directory + "/" + name, isDirectory: &isDirectory)
            precondition(!isDirectory.boolValue, "a directory appeared in the cache: \(name)")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count >= 2 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: bytes, count: count))
    let choice = Int(input[0])
    let split = 1 + (input.count > 2 ? Int(input[1]) % (input.count - 1) : 0)
    let first = String(decoding: input[1..<split], as: UTF8.self)
    let second = String(decoding: input[split...], as: UTF8.self)

    // Memory cache, addressed by request.
    let requestA = request(first, processors: choice)
    let requestB = request(second, processors: choice >> 4)
    pipeline.cache[requestA] = CachedImage(image: marker(1))
    let sameKey = requestA.imageID == requestB.imageID && (choice % 5) == ((choice >> 4) % 5)
    if let hit = pipeline.cache[requestB] {
        precondition(sameKey, "request B got request A's memory-cache entry")
        precondition(hit.image.pixel(x: 0, y: 0).red == 1)
    }
    precondition(pipeline.cache[requestA]?.image.pixel(x: 0, y: 0).red == 1, "request A lost its own entry")
    pipeline.cache[requestA] = nil

    // Disk caches, addressed by key.
    let payload = Data(input)
    for cache in [hashedCache, rawCache] {
        cache.storeData(payload, for: first)
        cache.flush()
        if first != second, let other = cache.cachedData(for: second) {
            preconditionFailure("key B got key A's data (\(other.count) bytes)")
        }
        if let own = cache.cachedData(for: first) {
            precondition(own == payload, "key A read back other bytes")
        }
    }
    pipeline.cache.storeCachedData(payload, for: requestA)
    hashedCache.flush()
    checkTree()
    // Remove exactly what this input wrote, so the directories stay small and the next input
    // starts from empty caches (a leftover would show in checkTree's listing next time).
    for cache in [hashedCache, rawCache] { cache.removeData(for: first) }
    if let key = requestA.imageID { hashedCache.removeData(for: key) }
    hashedCache.flush()
    rawCache.flush()
    return 0
}
