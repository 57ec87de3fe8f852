import Comet
import CometTestSupport
import Foundation

// Writes to a DataCache as fast as it can until it is killed: the child process of the disk-cache
// crash-safety test. Usage: CacheCrashWriter DIRECTORY SEED. Prints "ready" once the first
// value is on disk, so the parent kills it while writes are under way.

let arguments = CommandLine.arguments
guard arguments.count == 3, let seed = UInt64(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: CacheCrashWriter DIRECTORY SEED\n".utf8))
    exit(2)
}
let cache = DataCache(path: URL(fileURLWithPath: arguments[1]))
var generator = SplitMix64(seed: seed)  // the same sequence for the same seed: a round can be replayed
var version = seed << 20
var announced = false
while true {
    version += 1
    let index = Int.random(in: 0..<CrashPayload.keyCount, using: &generator)
    switch Int.random(in: 0..<100, using: &generator) {
    case 0..<85:
        // Mostly small values, sometimes large ones (slower writes, wider windows to be killed in).
        let length =
            Bool.random(using: &generator)
            ? Int.random(in: 0..<4_096, using: &generator)
            : Int.random(in: 0..<CrashPayload.maximumLength, using: &generator)
        cache.storeData(CrashPayload.make(index: index, version: version, length: length), for: CrashPayload.key(index))
    case 85..<97:
        cache.removeData(for: CrashPayload.key(index))
    case 97..<99:
        cache.flush()
    default:
        cache.removeAll()
    }
    if !announced {
        cache.flush()
        FileHandle.standardOutput.write(Data("ready\n".utf8))  // unbuffered: the parent sees it now
        announced = true
    }
}
