import ArgumentParser
import CometRedis
import CometServer
import Foundation
import Logging
import Prometheus
import ServiceLifecycle
import Tracing

/// `comet-server`: the thumbnail service. Reads the signing key and salt (hex) from `COMET_KEY`
/// and `COMET_SALT`; prints `comet-server listening on http://HOST:PORT` once it accepts
/// connections; stops on SIGTERM or SIGINT after the requests in flight finish (exit 0).
@main
struct CometServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "comet-server",
        abstract:
            "Serves resized images over HTTP in imgproxy's URL grammar: /{signature}/{option}/{option}.../plain/{source URL}[@{ext}] or .../{base64url(source)}[.{ext}].",
        discussion: """
            Signing: COMET_KEY and COMET_SALT (hex; IMGPROXY_KEY and IMGPROXY_SALT are read too; several, comma-separated, are all accepted) in the environment; signature = base64url(HMAC-SHA256(key, salt + "/{option}/.../{source}")), truncated to --signature-size bytes.
            Options, one path segment each (name:arg:arg):
            """ + "\n" + ThumbnailOptions.helpText
                + "\n  pr:{name}[:{name}…] (or preset): the options of presets given with --preset, in order"
    )

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on (0: any free port).") var port = 8080
    @Flag(
        help: "Serve unsigned URLs (local development only: anyone may then make the server fetch any allowed source).")
    var insecureUnsigned = false
    @Option(
        help:
            "How many bytes of the HMAC-SHA256 digest a signature holds, 1 to 32 (imgproxy's IMGPROXY_SIGNATURE_SIZE; default: that variable, else 32)."
    )
    var signatureSize: Int?
    @Option(
        name: .customLong("allow-source"),
        help: "A URL prefix, host or *.domain sources must match (repeatable; none: any public host).")
    var allowedSources: [String] = []
    @Flag(help: "Allow sources on loopback, private, link-local and multicast addresses.") var allowPrivateNetworks =
        false
    @Option(name: .customLong("private-host"), help: "A host that may resolve to a private address (repeatable).")
    var privateHosts: [String] = []
    @Option(help: "The largest source, in bytes.") var maxSourceBytes = 32 << 20
    @Option(help: "The most pixels a source may declare.") var maxSourcePixels = 100_000_000
    @Option(help: "The most frames an animated source may have to stay animated (WebP, GIF); 1 keeps none.")
    var maxAnimationFrames = 256
    @Option(help: "The most pixels all frames of an animation may have together (frames x width x height).")
    var maxAnimationPixels = 1 << 25
    @Option(help: "The largest output width or height.") var maxOutputDimension = 4096
    @Flag(
        help:
            "Let URLs give imgproxy's security options (msr, msfs, maf, mafr, mrd), each lowering one of the limits above for one request, never raising it (default: IMGPROXY_ALLOW_SECURITY_OPTIONS, else off: such a URL is a 403)."
    )
    var allowSecurityOptions = false
    @Option(help: "The largest result, in bytes.") var maxOutputBytes = 16 << 20
    @Option(help: "The most redirects followed.") var maxRedirects = 5
    @Option(help: "Seconds a source may take.") var sourceTimeout: Double = 10
    @Option(help: "Seconds one result may take, fetch to encoded bytes.") var processingTimeout: Double = 30
    @Option(help: "Results made at once (default: twice the processor count).") var maxConcurrent: Int?
    @Option(help: "Results waiting for a turn before 503.") var maxQueued = 64
    @Option(help: "Cache-Control max-age, in seconds.") var cacheMaxAge = 86_400
    @Option(help: "Seconds a result stays in the result store.") var resultTtl = 3600
    @Option(help: "Seconds between two releases of the allocator's free memory to the system (0: never).")
    var heapTrimInterval: Double = 10
    @Option(
        help:
            "Allocations of this many bytes or more get a mapping of their own, returned to the system when freed (0: glibc's default, a threshold that rises with use)."
    )
    var mallocMmapThreshold = 64 << 10
    @Option(help: "The most heaps the allocator keeps, shared by all threads (0: glibc's default, eight per core).")
    var mallocArenaMax = 2
    @Option(help: "Bytes of results kept in memory (raise it on a machine with memory to spare).")
    var resultCacheBytes = 32 << 20
    @Option(
        help:
            "Bytes of processed images kept in memory, for a result asked for again in another format or quality (0: none)."
    )
    var imageCacheBytes = 0
    @Flag(help: "Never choose AVIF from Accept (AVIF only when a URL asks for it).") var noAvifNegotiation = false
    @Option(
        help:
            "Redis (host:port or redis://host:port; also COMET_REDIS_URL) shared by every instance: results made by one are served by all, and each is made once among them. Redis down or slow: served from memory and the source."
    )
    var redis: String?
    @Option(help: "Seconds a client may take to send a request head (from connecting, or from the head's first byte).")
    var headerTimeout: Double = 10
    @Option(help: "Seconds a connection may stay open with no request in progress.") var idleTimeout: Double = 60
    @Option(
        help:
            "Client connections open at once; at the limit a new one closes the one waiting longest for a request head."
    )
    var maxConnections = 4096
    @Option(
        help:
            "Export traces over OTLP/HTTP (protobuf) to the collector at this base URL (spans go to URL/v1/traces), e.g. http://127.0.0.1:4318; OTEL_* variables tune the export. Default: spans are not exported. (Only in builds with the OTLPExport trait, the default.)"
    )
    var otlpEndpoint: String?
    @Option(
        help:
            "An image file (any format Comet decodes) that URLs with wm draw over their results; without it, wm is a 400."
    )
    var watermark: String?
    @Option(
        name: .customLong("preset"),
        help:
            "A preset URLs may name with pr:NAME, as NAME=opt:arg/opt:arg as imgproxy's IMGPROXY_PRESETS writes one (repeatable); a preset may name presets; one named default applies to every request."
    )
    var presets: [String] = []
    @Option(
        help:
            "A file of presets, one NAME=options a line as --preset takes them (# starts a comment line); with --preset, no name may be defined twice."
    )
    var presetsFile: String?
    @Flag(help: "URLs name presets only, as /{signature}/{name}:{name}/{source} (imgproxy's IMGPROXY_ONLY_PRESETS).")
    var onlyPresets = false
    @Flag(help: "Serve a demo gallery and a page of service URLs at /.") var demo = false
    @Option(help: "trace, debug, info, notice, warning, error or critical.") var logLevel = "info"

    func run() async throws {
        // Before anything allocates request-sized buffers (see HeapTrimmer.mapAllocations).
        if mallocMmapThreshold > 0 { HeapTrimmer.mapAllocations(ofAtLeast: mallocMmapThreshold) }
        if mallocArenaMax > 0 { HeapTrimmer.limitHeaps(to: mallocArenaMax) }
        LoggingSystem.bootstrap { LazyMetadataLogHandler(StreamLogHandler.standardError(label: $0)) }
        var logger = Logger(label: "comet.server")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info

        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.signer = try signer(logger: logger)
        configuration.sourcePolicy = SourcePolicy(
            allowedSources: allowedSources, allowsPrivateNetworks: allowPrivateNetworks,
            privateHosts: Set(privateHosts + (demo ? ["127.0.0.1"] : [])))
        configuration.fetchLimits = SourceFetchLimits(
            maximumBytes: maxSourceBytes, maximumRedirects: maxRedirects,
            timeout: sourceTimeout)
        configuration.maximumSourcePixels = maxSourcePixels
        configuration.maximumAnimationFrames = max(1, maxAnimationFrames)
        configuration.maximumAnimationPixels = max(1, maxAnimationPixels)
        configuration.maximumOutputDimension = maxOutputDimension
        configuration.allowsSecurityOptions =
            try allowSecurityOptions || Self.environmentFlag("IMGPROXY_ALLOW_SECURITY_OPTIONS")
        configuration.maximumOutputBytes = maxOutputBytes
        configuration.processingTimeout = processingTimeout
        if let maxConcurrent { configuration.maximumConcurrentWork = maxConcurrent }
        configuration.maximumQueuedWork = maxQueued
        configuration.cacheMaxAge = cacheMaxAge
        configuration.resultTTL = .seconds(resultTtl)
        configuration.imageCacheBytes = imageCacheBytes
        configuration.negotiatesAVIF = !noAvifNegotiation
        configuration.demo = demo
        var definitions: [String: String] = [:]
        do {
            for preset in presets { try ThumbnailPresets.addDefinition(preset, to: &definitions, origin: "--preset") }
            if let presetsFile {
                let text: String
                do {
                    text = try String(contentsOfFile: presetsFile, encoding: .utf8)
                } catch {
                    throw ValidationError("--presets-file \(presetsFile): \(error.localizedDescription)")
                }
                try ThumbnailPresets.addDefinitions(file: text, path: presetsFile, to: &definitions)
            }
            configuration.presets = try ThumbnailPresets(
                definitions, onlyPresets: onlyPresets, maximumDimension: maxOutputDimension)
        } catch let error as ServiceError {
            throw ValidationError("--preset: \(error.message)")
        }
        if let watermark {
            do {
                configuration.watermark = try WatermarkImage.load(path: watermark)
            } catch {
                throw ValidationError("--watermark \(watermark): \(error)")
            }
        }
        configuration.connectionLimits = ConnectionLimits(
            headerReadTimeout: .seconds(headerTimeout), idleTimeout: .seconds(idleTimeout),
            maximumConnections: maxConnections)

        var traceExport: (any Service)?
        if let otlpEndpoint {
            #if OTLPExport
                let export = try TraceExport.make(baseURL: otlpEndpoint)
                InstrumentationSystem.bootstrap(export.tracer)
                configuration.tracer = export.tracer
                traceExport = export.service
                logger.info("exporting traces to \(otlpEndpoint) (OTLP/HTTP)")
            #else
                throw ValidationError("--otlp-endpoint: this comet-server was built without the OTLPExport trait")
            #endif
        }

        let metrics = ServerMetrics()
        let local = LocalResultStore(costLimit: resultCacheBytes)
        let redisClient = try redisClient(logger: logger)
        let store: any SharedResultStoring =
            redisClient.map { client in
                TieredResultStore(
                    local: local,
                    shared: RedisResultStore(
                        client: client, logger: logger,
                        metricsFactory: PrometheusMetricsFactory(registry: metrics.registry)))
            } ?? local
        defer { redisClient?.close() }
        let responder = ServiceResponder(configuration: configuration, store: store, metrics: metrics, logger: logger)
        let gallery = demo ? await DemoGallery.make() : nil
        let server = ThumbnailServer(responder: responder, demo: gallery, logger: logger)
        let host = host
        let application = server.makeApplication { port in
            // Unbuffered, so a script reading the pipe sees it at once.
            let line = "comet-server listening on http://\(host):\(port)\(gallery != nil ? " (demo page at /)" : "")\n"
            FileHandle.standardOutput.write(Data(line.utf8))
        }
        // The exporter stops after the application, so the last requests' spans are flushed.
        var services: [any Service] = (traceExport.map { [$0] } ?? []) + [application]
        if heapTrimInterval > 0 {
            services.append(HeapTrimmer(interval: .milliseconds(Int64(heapTrimInterval * 1000))))
        }
        let group = ServiceGroup(
            configuration: .init(
                services: services, gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await group.run()
        logger.info("comet-server stopped")
    }

    /// Whether the environment variable `name` is set to a true value (`1`, `t`, `true`, `yes`,
    /// `on`; imgproxy's booleans), `false` when it is unset or empty; throws for any other value.
    private static func environmentFlag(_ name: String) throws -> Bool {
        guard let text = ProcessInfo.processInfo.environment[name]?.lowercased(), !text.isEmpty else { return false }
        switch text {
        case "1", "t", "true", "yes", "on": return true
        case "0", "f", "false", "no", "off": return false
        default: throw ValidationError("\(name) is true or false, not \(text)")
        }
    }

    /// The Redis client for --redis or COMET_REDIS_URL, if either is given.
    private func redisClient(logger: Logger) throws -> RedisClient? {
        guard let address = redis ?? ProcessInfo.processInfo.environment["COMET_REDIS_URL"], !address.isEmpty else {
            return nil
        }
        var hostAndPort = Substring(address)
        if hostAndPort.hasPrefix("redis://") { hostAndPort = hostAndPort.dropFirst("redis://".count) }
        if hostAndPort.hasSuffix("/") { hostAndPort = hostAndPort.dropLast() }
        guard let colon = hostAndPort.lastIndex(of: ":"),
            let port = Int(hostAndPort[hostAndPort.index(after: colon)...]),
            (1...65535).contains(port), colon > hostAndPort.startIndex
        else {
            throw ValidationError("--redis wants host:port or redis://host:port, got \(address)")
        }
        let host = String(hostAndPort[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        logger.info("results shared through Redis at \(host):\(port)")
        return RedisClient(configuration: RedisConfiguration(host: host, port: port), logger: logger)
    }

    /// The signer from COMET_KEY/COMET_SALT (else IMGPROXY_KEY/IMGPROXY_SALT), its signatures of
    /// --signature-size bytes (else IMGPROXY_SIGNATURE_SIZE); `nil` with --insecure-unsigned (logged loudly); a
    /// random key for --demo when none is set.
    private func signer(logger: Logger) throws -> URLSigner? {
        let environment = ProcessInfo.processInfo.environment
        if insecureUnsigned {
            for _ in 0..<3 {
                logger.warning(
                    "INSECURE: --insecure-unsigned serves UNSIGNED URLs. Anyone who can reach this server can make it fetch and process any allowed source. Never use it in production."
                )
            }
            return nil
        }
        let size =
            try signatureSize ?? environment["IMGPROXY_SIGNATURE_SIZE"].map { text in
                guard let size = Int(text) else {
                    throw ValidationError("IMGPROXY_SIGNATURE_SIZE is a number of bytes")
                }
                return size
            } ?? 32
        // imgproxy's variables are read too, so that its deployment's environment serves as it is.
        for (keyName, saltName) in [("COMET_KEY", "COMET_SALT"), ("IMGPROXY_KEY", "IMGPROXY_SALT")] {
            if let key = environment[keyName], !key.isEmpty {
                return try URLSigner(hexKey: key, hexSalt: environment[saltName] ?? "", signatureSize: size)
            }
        }
        if demo {
            logger.notice("--demo without COMET_KEY: signing the demo page's URLs with a random key")
            return try URLSigner(key: (0..<32).map { _ in UInt8.random(in: 0...255) }, salt: [])
        }
        throw ValidationError(
            "set COMET_KEY and COMET_SALT (hex) to sign URLs, or pass --insecure-unsigned for local development")
    }
}
