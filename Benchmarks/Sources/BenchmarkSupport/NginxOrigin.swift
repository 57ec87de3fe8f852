import Foundation

/// An nginx (Debian's `nginx-light`, installed by `make bench`) serving the workload files on
/// 127.0.0.1 from its own process, as an image origin would be: its CPU time is not the
/// measured process's. `/<Workloads.photosFolder>/NNN` are the 1024×768 JPEGs.
public final class NginxOrigin: @unchecked Sendable {
    // Sendable: every stored property is immutable; `running` is guarded by `lock`.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var running: [NginxOrigin] = []

    private let process: Process
    private let directory: URL
    /// The port it listens on.
    public let port: UInt16

    private init(process: Process, directory: URL, port: UInt16) {
        self.process = process
        self.directory = directory
        self.port = port
    }

    /// Starts nginx on a free port and waits until it answers; throws when nginx is missing.
    /// Ports are drawn below Linux's ephemeral range (32768 and up), where client sockets of
    /// other processes live; a port taken anyway costs one more try with another.
    public static func start() throws -> NginxOrigin {
        guard
            let binary = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(
                where: FileManager.default.isExecutableFile(atPath:))
        else {
            throw CocoaError(
                .fileNoSuchFile,
                userInfo: [NSLocalizedDescriptionKey: "nginx is not installed (apt-get install nginx-light)"])
        }
        _ = Workloads.photos  // make sure the files exist
        var lastError: (any Error)?
        for _ in 0..<3 {
            do {
                return try start(binary: binary, port: UInt16.random(in: 20_000...32_000))
            } catch {
                lastError = error
            }
        }
        throw lastError!
    }

    private static func start(binary: String, port: UInt16) throws -> NginxOrigin {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("comet-bench-nginx-\(port)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = """
            daemon off;
            master_process off;
            worker_processes 1;
            error_log \(directory.path)/error.log warn;
            pid \(directory.path)/nginx.pid;
            events { worker_connections 1024; }
            http {
                access_log off;
                sendfile on;
                keepalive_requests 100000;
                client_body_temp_path \(directory.path);
                proxy_temp_path \(directory.path);
                fastcgi_temp_path \(directory.path);
                uwsgi_temp_path \(directory.path);
                scgi_temp_path \(directory.path);
                default_type image/jpeg;
                server {
                    listen 127.0.0.1:\(port);
                    root \(Workloads.directory.path);
                    location = /nginx-status { stub_status; }
                }
            }
            """
        let configFile = directory.appendingPathComponent("nginx.conf")
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-c", configFile.path, "-p", directory.path]
        try process.run()
        let origin = NginxOrigin(process: process, directory: directory, port: port)
        lock.withLock { running.append(origin) }
        for _ in 0..<200 {
            if (try? Data(contentsOf: origin.url(photo: 0))) != nil { return origin }
            usleep(10_000)
        }
        origin.stop()
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "nginx did not start on port \(port)"])
    }

    /// The URL of photo `index`.
    public func url(photo index: Int) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(Workloads.photosFolder)/" + String(format: "%03d", index))!
    }

    /// The connections nginx has accepted so far (its stub_status), including the one that asks.
    public func acceptedConnections() -> Int? {
        guard let url = URL(string: "http://127.0.0.1:\(port)/nginx-status"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return nil }
        // "Active connections: N\nserver accepts handled requests\n A H R\n…"
        let lines = text.split(separator: "\n")
        guard lines.count > 2 else { return nil }
        return lines[2].split(separator: " ").first.flatMap { Int($0) }
    }

    /// Stops every origin this process started (a benchmark's teardown).
    public static func stopAll() {
        let origins = lock.withLock { () -> [NginxOrigin] in
            defer { running = [] }
            return running
        }
        for origin in origins { origin.stop() }
    }

    /// Stops nginx.
    public func stop() {
        guard process.isRunning else { return }
        // SIGKILL: nginx with `master_process off` may not exit promptly on SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// The process's CPU time (user + system) so far, in nanoseconds.
public func processCPUTime() -> Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    let user = Double(usage.ru_utime.tv_sec) * 1e9 + Double(usage.ru_utime.tv_usec) * 1e3
    let system = Double(usage.ru_stime.tv_sec) * 1e9 + Double(usage.ru_stime.tv_usec) * 1e3
    return user + system
}
