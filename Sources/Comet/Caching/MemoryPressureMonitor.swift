import Dispatch
import Foundation
import Locking

/// A memory cache that can give memory back when the system runs short (see
/// ``MemoryPressureMonitor``). ``ImageCache`` and the migration shims' memory caches conform.
public protocol MemoryPressureTrimming: AnyObject, Sendable {
    /// Frees memory for `level`: at ``MemoryPressureMonitor/Level/warning`` keep about half,
    /// at ``MemoryPressureMonitor/Level/critical`` keep nothing. Called on the monitor's queue.
    func trim(for level: MemoryPressureMonitor.Level)
}

/// Watches the memory pressure Linux reports and trims the memory caches registered with it.
///
/// Sources, read on each ``poll()``:
/// - *Pressure stall information* (`memory.pressure` of the process's cgroup v2, or
///   `/proc/pressure/memory`): `some avg10` ≥ ``Thresholds/warningStall`` % is a warning;
///   `full avg10` ≥ ``Thresholds/criticalStall`` %, or `some avg10` ≥
///   ``Thresholds/criticalSomeStall`` %, is critical.
/// - *cgroup v2 `memory.events`*: a rise of `high` since the last reading is a warning; a rise of
///   `max`, `oom` or `oom_kill` is critical (the first reading only sets the baseline).
///
/// Where none of the files exist (macOS, cgroup v1, a sandbox), the monitor does nothing.
/// Monitoring is opt-in: call ``start(interval:)`` (for example on
/// ``MemoryPressureMonitor/shared`` at launch) to poll on a timer. Every ``ImageCache`` registers
/// itself with ``shared`` when made; register other caches with ``register(_:)``. Caches are held
/// weakly.
///
/// Thread-safe. Trimming runs on the thread that polls (the monitor's own queue when started).
public final class MemoryPressureMonitor: Sendable {
    /// How hard the system is pressed for memory.
    public enum Level: Int, Sendable, Comparable {
        /// Nothing to do.
        case normal
        /// Memory is getting short: caches keep about half.
        case warning
        /// Memory is short: caches empty themselves.
        case critical

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// How much of a cache costing `total` to keep at this level: all of it when normal,
        /// half at a warning, nothing when critical.
        public func costToKeep<Cost: BinaryInteger>(of total: Cost) -> Cost {
            switch self {
            case .normal: total
            case .warning: total / 2
            case .critical: 0
            }
        }
    }

    /// A file the monitor reads.
    public enum Source: Sendable, Hashable {
        /// A pressure-stall file (`memory.pressure`, `/proc/pressure/memory`).
        case pressureStall(URL)
        /// A cgroup v2 `memory.events` file.
        case memoryEvents(URL)
    }

    /// Pressure-stall percentages (of `avg10`) that make a level.
    public struct Thresholds: Sendable, Hashable {
        /// `some avg10` at or above this is a warning. Default 10.
        public var warningStall: Double = 10
        /// `full avg10` at or above this is critical. Default 10.
        public var criticalStall: Double = 10
        /// `some avg10` at or above this is critical. Default 40.
        public var criticalSomeStall: Double = 40

        /// The defaults.
        public init() {}
    }

    private struct WeakCache {
        weak var cache: (any MemoryPressureTrimming)?
    }

    private struct State {
        var caches: [WeakCache] = []
        var lastEvents: [URL: [String: Int]] = [:]
        var timer: (any DispatchSourceTimer)?
    }

    /// The process-wide monitor over the system's files (``systemSources()``).
    public static let shared = MemoryPressureMonitor()

    /// The files read.
    public let sources: [Source]
    /// The levels' thresholds.
    public let thresholds: Thresholds
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "com.comet.MemoryPressureMonitor", qos: .utility)

    /// Creates a monitor over `sources` (default: ``systemSources()``).
    public init(sources: [Source] = MemoryPressureMonitor.systemSources(), thresholds: Thresholds = Thresholds()) {
        self.sources = sources
        self.thresholds = thresholds
    }

    /// The files of this system that exist: the process's cgroup v2 `memory.pressure` and
    /// `memory.events`, else `/proc/pressure/memory`. Empty where none does.
    public static func systemSources() -> [Source] {
        var sources: [Source] = []
        let fileManager = FileManager.default
        if let group = SystemMemory.ownCgroupV2Directory() {
            let pressure = group.appendingPathComponent("memory.pressure")
            let events = group.appendingPathComponent("memory.events")
            if fileManager.isReadableFile(atPath: pressure.path) { sources.append(.pressureStall(pressure)) }
            if fileManager.isReadableFile(atPath: events.path) { sources.append(.memoryEvents(events)) }
        }
        let system = URL(fileURLWithPath: "/proc/pressure/memory")
        if !sources.contains(where: { if case .pressureStall = $0 { true } else { false } }),
            fileManager.isReadableFile(atPath: system.path)
        {
            sources.append(.pressureStall(system))
        }
        return sources
    }

    /// Trims `cache` when pressure rises (held weakly; registering twice is harmless).
    public func register(_ cache: any MemoryPressureTrimming) {
        state.withLock { state in
            state.caches.removeAll { $0.cache == nil }
            guard !state.caches.contains(where: { $0.cache === cache }) else { return }
            state.caches.append(WeakCache(cache: cache))
        }
    }

    /// Reads the sources now, trims the registered caches when the level is above normal, and
    /// returns the level.
    @discardableResult
    public func poll() -> Level {
        let level = sources.map(read).max() ?? .normal
        guard level > .normal else { return level }
        let caches = state.withLock { state in state.caches.compactMap(\.cache) }
        for cache in caches { cache.trim(for: level) }
        return level
    }

    /// Polls every `interval` on the monitor's own queue until ``stop()``; does nothing when
    /// there are no sources or it is already running.
    public func start(interval: Duration = .seconds(5)) {
        guard !sources.isEmpty else { return }
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        state.withLock { state in
            guard state.timer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + seconds, repeating: max(0.01, seconds))
            timer.setEventHandler { [weak self] in self?.poll() }
            timer.resume()
            state.timer = timer
        }
    }

    /// Stops polling.
    public func stop() {
        let timer = state.withLock { state in
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
    }

    private func read(_ source: Source) -> Level {
        switch source {
        case .pressureStall(let url):
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return .normal }
            return level(stall: text)
        case .memoryEvents(let url):
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return .normal }
            let counts = Self.fields(text)
            let previous = state.withLock { state in
                defer { state.lastEvents[url] = counts }
                return state.lastEvents[url]
            }
            guard let previous else { return .normal }
            func rose(_ name: String) -> Bool { (counts[name] ?? 0) > (previous[name] ?? 0) }
            if rose("max") || rose("oom") || rose("oom_kill") { return .critical }
            return rose("high") ? .warning : .normal
        }
    }

    /// The level of a pressure-stall reading ("some avg10=… avg60=… …" and "full avg10=…").
    private func level(stall text: String) -> Level {
        var some = 0.0
        var full = 0.0
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard let kind = words.first, let avg10 = words.first(where: { $0.hasPrefix("avg10=") }),
                let value = Double(avg10.dropFirst("avg10=".count))
            else { continue }
            if kind == "some" { some = value } else if kind == "full" { full = value }
        }
        if full >= thresholds.criticalStall || some >= thresholds.criticalSomeStall { return .critical }
        return some >= thresholds.warningStall ? .warning : .normal
    }

    /// "name value" lines as a dictionary.
    private static func fields(_ text: String) -> [String: Int] {
        var fields: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count == 2, let value = Int(words[1]) { fields[String(words[0])] = value }
        }
        return fields
    }
}
