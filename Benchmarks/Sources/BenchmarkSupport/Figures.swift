/// Every figure of the suite, in report order. Names contain no commas (package-benchmark's CSV
/// export does not quote them reliably).
public enum Figures {
    static let codecs = "Codecs and processors"
    static let network = "End to end over loopback"
    static let caches = "Caches"
    static let pipeline = "Pipeline"
    static let streams = "Streams"
    static let server = "comet-server"

    public static let decodeJPEG = Figure(
        codecs, "Decode JPEG 1024×768 q85", reference: "libjpeg-turbo loop in memory",
        goals: [.ratio(atMost: 1.15)])
    public static let decodeLargeJPEG = Figure(
        codecs, "Decode JPEG 8000×6000 at 1/8", reference: "libjpeg-turbo loop scale 1/8",
        goals: [.ratio(atMost: 1.15)])
    /// The decode scale rule, measured: for a 256² fill of a 1024×768 JPEG, Comet decodes at 1/2
    /// (the cheapest of the SIMD scales 1/2, 1/4, 1/8 that covers it) rather than at 3/8, the
    /// smallest M/8 that covers it, whose reduced IDCT is scalar in libjpeg-turbo 2.1.
    public static let thumbnailDecodeScale = Figure(
        codecs, "Decode JPEG 1024×768 for a 256² fill (Comet picks 1/2)",
        reference: "libjpeg-turbo loop at 3/8", goals: [.ratio(atMost: 1.0)])
    public static let decodePNG = Figure(codecs, "Decode PNG 512×512 RGBA", reference: "libpng simplified API loop")
    public static let resize = Figure(
        codecs, "Resize 1024×768 → 256² fill+crop (Lanczos3)", reference: "C loop: the same Lanczos3 taps (scalar)",
        goals: [.ratio(atMost: 1.2)])
    /// The fast option: `ImageProcessors.Resize.Filter.areaAverage`, whole 3×3 blocks here.
    public static let resizeAreaAverage = Figure(
        codecs, "Resize 1024×768 → 256² fill+crop (area average)", reference: "C loop: 3×3 block average",
        goals: [.ratio(atMost: 1.2)])
    /// Comet's default 256² fill thumbnail of 1024×768 JPEGs (decode with the resize's headroom,
    /// Lanczos3) against libvips' `vips_thumbnail_buffer` of the same bytes: at least 1.5× its
    /// images per second (ratio of times ≤ 0.667), on one core and on two.
    public static let thumbnailOneCore = Figure(
        codecs, "Thumbnail 1024×768 JPEG → 256² fill (1 core)", reference: "libvips vips_thumbnail_buffer (1 core)",
        operations: 20, goals: [.ratio(atMost: 0.667)])
    public static let thumbnailTwoCores = Figure(
        codecs, "Thumbnail 1024×768 JPEG → 256² fill (2 cores)",
        reference: "libvips vips_thumbnail_buffer (2 threads)", operations: 40, goals: [.ratio(atMost: 0.667)])
    public static let blur = Figure(
        codecs, "Gaussian blur σ8 1024×768", reference: "C loop: one box pass each way",
        goals: [.perOperation(atMostNanoseconds: 15_000_000)])
    public static let sharpen = Figure(
        codecs, "Sharpen σ0.5 1024×768", reference: "C loop: the same Gaussian unsharp mask in float")
    public static let largeThumbnail = Figure(
        codecs, "Thumbnail 8000×6000 → 256² (pipeline)",
        reference: "libjpeg-turbo loop scale 1/8 (no resize)")
    /// One thumbnail in a fresh process: the peak resident memory it needs (repeated runs
    /// measure the allocator's retained arenas instead).
    public static let largeThumbnailMemory = Figure(
        codecs, "Thumbnail 8000×6000 → 256² once (fresh process)",
        reference: "libjpeg-turbo scale 1/8 once",
        goals: [.peakMemoryAboveReference(atMostBytes: 60 << 20)])

    public static let decodeWebP = Figure(
        codecs, "Decode WebP 1024×768 q80", reference: "libwebp WebPDecodeRGBAInto loop",
        goals: [.ratio(atMost: 1.1)])
    /// A 256² fill+crop thumbnail of a 1024×768 WebP: decoded at 341×256 by libwebp's scaler,
    /// then cropped, against the path without decode-time scaling.
    public static let webpThumbnail = Figure(
        codecs, "WebP 1024×768 → 256² scaled decode + fill",
        reference: "full WebP decode + the same fill resize")
    public static let decodeAVIF = Figure(
        codecs, "Decode AVIF 1024×768 8-bit 4:2:0", reference: "libavif decode + RGB loop (1 thread)",
        goals: [.ratio(atMost: 1.1)])
    public static let encodeWebP = Figure(
        codecs, "Encode WebP 256² q80", reference: "libwebp WebPEncodeRGBA loop",
        goals: [.ratio(atMost: 1.1)])
    /// AVIF encoding is measured against WebP encoding of the same thumbnail: the cost of
    /// choosing AVIF for a disk cache.
    public static let encodeAVIF = Figure(
        codecs, "Encode AVIF 256² q60 speed 8", reference: "Comet WebP encode of the same 256² q80")

    static let colour = "Colour conversion"
    /// A Display P3 JPEG decoded to sRGB, against the same decode keeping the file's numbers
    /// (`keepsOriginalColors`): what the conversion adds to a decode.
    public static let decodeP3JPEG = Figure(
        colour, "Decode P3 JPEG 1024×768 converted to sRGB",
        reference: "the same decode keeping the P3 numbers", goals: [.ratio(atMost: 1.15)])
    /// An sRGB-tagged JPEG (detected as sRGB, nothing converted) against the same pixels untagged.
    public static let decodeSRGBTaggedJPEG = Figure(
        colour, "Decode sRGB-tagged JPEG 1024×768", reference: "the same JPEG untagged",
        goals: [.ratio(atMost: 1.05)])
    /// A P3 thumbnail (decode at 1/2, converted, 256² fill) against the same without conversion.
    public static let p3Thumbnail = Figure(
        colour, "P3 JPEG 1024×768 → 256² fill converted", reference: "the same keeping the P3 numbers",
        goals: [.ratio(atMost: 1.15)])

    public static let loopbackDecode = Figure(
        network, "200 JPEG 1024×768 over loopback → decoded",
        reference: "libjpeg-turbo loop in memory (1 core)", operations: 200,
        goals: [.ratio(atMost: 1.25)])
    public static let loopbackThumbnail = Figure(
        network, "200 thumbnails 1024×768 → 256² over loopback cold",
        reference: "C decode with 1.5× headroom + Lanczos3 in memory (1 core)", operations: 200)
    /// What a new user gets: the default configuration (no rate limit, memory cache, queues as
    /// shipped), a fresh pipeline, 200 photos from an nginx origin made into 256² fill+crop
    /// thumbnails. At least 1.6× the single-core C loop's images per second (ratio of times ≤ 0.625).
    public static let loopbackDefault = Figure(
        network, "200 thumbnails from nginx default configuration",
        reference: "C decode with 1.5× headroom + Lanczos3 in memory (1 core)", operations: 200,
        goals: [.ratio(atMost: 1 / 1.6)])
    /// Full decodes from the nginx origin, no memory cache: the decoded-image backlog keeps the
    /// peak resident memory during the batch, above the process's resident memory just before
    /// it (the process warmed up by two loads, so URLSession and the decoders are set up, as in
    /// an application), within 3 bitmaps (3 MB each) per decoding worker (2 on this machine).
    /// The reference does the same in a C loop, one bitmap at a time; the report also shows
    /// both processes' whole peaks.
    public static let loopbackDecodeMemory = Figure(
        network, "200 full decodes from nginx (peak memory)",
        reference: "libjpeg-turbo loop in memory (1 core)", operations: 200,
        goals: [.peakMemoryAboveStart(atMostBytes: 3 * 2 * 3 << 20)])
    /// The same run's CPU time per image (the process's user + system time over the batch)
    /// against Comet's decoder and resize called directly on two threads (both cores, as the
    /// pipeline runs), which keep their 200 thumbnails until the batch ends as the pipeline's
    /// memory cache keeps them.
    public static let loopbackDefaultCPU = Figure(
        network, "CPU per thumbnail from nginx default configuration",
        reference: "Comet decode with 1.5× headroom + resize called directly (2 threads), thumbnails kept",
        operations: 200,
        goals: [.ratio(atMost: 1.10)],
        cometMetric: (loopbackDefault.name, "cpuTime"), referenceMetric: "cpuTime")
    /// The same batch with `URLSessionDataLoader` (Foundation's URLSession over libcurl's easy
    /// interface), in the same run; reported, not held to a goal.
    public static let loopbackURLSession = Figure(
        network, "200 thumbnails from nginx with URLSessionDataLoader",
        reference: "C decode with 1.5× headroom + Lanczos3 in memory (1 core), once more", operations: 200)
    /// That batch's CPU time per image against Comet's decode and resize called directly.
    public static let loopbackURLSessionCPU = Figure(
        network, "CPU per thumbnail from nginx with URLSessionDataLoader",
        reference: "Comet decode with 1.5× headroom + resize called directly (2 threads), thumbnails kept, once more",
        operations: 200,
        cometMetric: (loopbackURLSession.name, "cpuTime"), referenceMetric: "cpuTime")
    /// A default loader that has loaded and then has nothing to do: its poll thread's context
    /// switches during one idle second (from /proc). None: no timer wakes it.
    public static let loaderIdle = Figure(
        network, "Idle DataLoader: poll-thread wake-ups in 1 s", reference: "the same second, no loader",
        goals: [.count("wakeups", equals: 0)])
    /// 10 000 requests for 200 photos (50 each, submitted together) through one default
    /// pipeline from nginx: requests for a photo whose download is running join it, and the
    /// connections nginx accepted (its stub_status) show the loader reusing them: as many as the
    /// pipeline's concurrent downloads (6), however many transfers run.
    public static let loaderReuse = Figure(
        network, "10 000 requests for 200 photos: connections", reference: "the 200 photos loaded once",
        operations: 10_000, goals: [.count("connections", equals: 6)])
    /// The same batch as ``loopbackDefault`` with `AsyncHTTPClientDataLoader` (the opt-in
    /// loader of Loaders/AsyncHTTPClient, the one comet-server uses) instead of URLSession, in
    /// the same run; its reference is the same C loop, run again under this figure's name.
    public static let loopbackAsyncHTTPClient = Figure(
        network, "200 thumbnails from nginx with AsyncHTTPClientDataLoader",
        reference: "C decode with 1.5× headroom + Lanczos3 in memory (1 core)",
        operations: 200, goals: [.ratio(atMost: 1 / 1.6)])
    /// That batch's CPU time per image against Comet's decode and resize called directly.
    public static let loopbackAsyncHTTPClientCPU = Figure(
        network, "CPU per thumbnail from nginx with AsyncHTTPClientDataLoader",
        reference: "Comet decode with 1.5× headroom + resize called directly (2 threads), thumbnails kept, again",
        operations: 200, goals: [.ratio(atMost: 1.1)],
        cometMetric: (loopbackAsyncHTTPClient.name, "cpuTime"), referenceMetric: "cpuTime")

    public static let memoryHitAsync = Figure(
        caches, "Memory hit via image(for:)", reference: "Dictionary lookup under NSLock",
        operations: 1000, goals: [.perOperation(atMostNanoseconds: 5_000)])
    public static let memoryHitSubscript = Figure(
        caches, "Memory hit via cache[request]", reference: "Dictionary lookup under NSLock",
        operations: 1000, goals: [.perOperation(atMostNanoseconds: 1_000)])
    public static let diskWrite = Figure(
        caches, "DataCache write 64 KB + flush", reference: "fopen/fwrite/fclose per file",
        operations: 50)
    public static let diskRead = Figure(
        caches, "DataCache read 64 KB", reference: "fopen/fread/fclose per file",
        operations: 50)

    /// comet-server's work for one request before its result store is asked (all of a cache
    /// hit's that is not HTTP): the path's grammar, the HMAC-SHA256 signature, 4 options, the
    /// 60-character source made canonical, the result key. The reference is the signature check
    /// alone, the cryptography no parsing avoids.
    public static let serverURLPath = Figure(
        server, "comet-server URL path: 4 slash-separated options + 60-char plain/ source + HMAC + key",
        reference: "the HMAC-SHA256 signature check alone (URLSigner)",
        operations: 1000, goals: [.perOperation(atMostNanoseconds: 3_000)])

    public static let overhead = Figure(
        pipeline, "Request with no-op loader (1×1 PNG)", reference: "loader + decode called directly",
        operations: 100, goals: [.overhead(atMostNanoseconds: 10_000)])
    public static let createCancel = Figure(
        pipeline, "Create + cancel a task", reference: "create + cancel a Swift Task",
        operations: 1000, goals: [.perOperation(atMostNanoseconds: 2_000)])
    public static let coalescing = Figure(
        pipeline, "1000 equal requests (coalesced)", reference: "one request alone",
        goals: [.count("downloads", equals: 1), .count("decodes", equals: 1)])
    public static let concurrency: [Figure] = [10, 100, 1000, 10_000].map { count in
        Figure(
            pipeline, "Per request at \(count) concurrent", reference: "\(count) loads + decodes in a task group",
            operations: count, goals: [.overhead(atMostNanoseconds: 10_000)])
    }

    public static let streamsChain = Figure(
        streams, "Streams map+filter+compactMap+sink 10000 values", reference: "plain for loop",
        operations: 10_000)

    /// Streams against OpenCombine 0.14 (the reference), same closures, same run. Goal: at most
    /// half of OpenCombine's time on every row.
    static let streamsVsOpenCombine = "Streams vs OpenCombine"
    public static let openCombineChain = Figure(
        streamsVsOpenCombine, "Streams sequence map+filter+compactMap+sink 10000 values",
        reference: "OpenCombine", operations: 10_000, goals: [.ratio(atMost: 0.5)])
    public static let openCombineFanOut: [Figure] = [1, 10, 100].map { count in
        Figure(
            streamsVsOpenCombine, "Streams PassthroughSubject send to \(count) map+sink subscribers",
            reference: "OpenCombine",
            operations: 1000, goals: [.ratio(atMost: 0.5)])
    }
    public static let openCombineFlatMap = Figure(
        streamsVsOpenCombine, "Streams flatMap Just per value", reference: "OpenCombine",
        operations: 1000, goals: [.ratio(atMost: 0.5)])
    public static let openCombineImageStreamSetup = Figure(
        streamsVsOpenCombine, "Streams setup Just.append(Just).map.catch.sink",
        reference: "OpenCombine", operations: 1000, goals: [.ratio(atMost: 0.5)])
    /// The ImageStream shape as it really runs: its streams fail with `Error`, so `append` and
    /// `catch` relay a failing upstream (the row above fails with `Never`).
    public static let openCombineImageStreamError = Figure(
        streamsVsOpenCombine,
        "Streams setup Just.append(Just) failing with Error.map.catch.sink",
        reference: "OpenCombine", operations: 1000, goals: [.ratio(atMost: 0.5)])
    /// OpenCombine 0.14 has no `merge`: the reference is how its users merge subjects,
    /// `Publishers.Sequence(sequence: subjects).flatMap { $0 }`.
    public static let openCombineMerge = Figure(
        streamsVsOpenCombine, "Streams merge of 10 subjects per value",
        reference: "OpenCombine Sequence(subjects).flatMap { $0 }", operations: 1000,
        goals: [.ratio(atMost: 0.5)])
    /// OpenCombine 0.14 has no `combineLatest` and no operator that does its work, so no
    /// reference is measured: Streams' time only.
    public static let openCombineCombineLatest = Figure(
        streamsVsOpenCombine, "Streams combineLatest of 2 subjects per pair",
        reference: "none (OpenCombine 0.14 has no combineLatest)", operations: 1000)
    public static let openCombineZip = Figure(
        streamsVsOpenCombine, "Streams zip of 2 subjects per pair", reference: "OpenCombine",
        operations: 1000, goals: [.ratio(atMost: 0.5)])
    public static let openCombineSwitchToLatest = Figure(
        streamsVsOpenCombine, "Streams switchToLatest over Just per value",
        reference: "OpenCombine", operations: 1000, goals: [.ratio(atMost: 0.5)])
    public static let openCombineReceiveOn = Figure(
        streamsVsOpenCombine, "Streams receive(on: immediate) per value",
        reference: "OpenCombine", operations: 1000, goals: [.ratio(atMost: 0.5)])
    public static let openCombineSetup = Figure(
        streamsVsOpenCombine, "Streams setup subject 5-operator chain + sink + cancel",
        reference: "OpenCombine", operations: 1000, goals: [.ratio(atMost: 0.5)])
    public static let openCombine: [Figure] =
        [openCombineChain] + openCombineFanOut + [
            openCombineFlatMap, openCombineImageStreamSetup, openCombineImageStreamError, openCombineMerge,
            openCombineCombineLatest, openCombineZip,
            openCombineSwitchToLatest, openCombineReceiveOn, openCombineSetup,
        ]

    /// All figures, in report order.
    public static let all: [Figure] =
        [
            decodeJPEG, decodeLargeJPEG, decodePNG, resize, resizeAreaAverage, thumbnailOneCore, thumbnailTwoCores,
            blur, sharpen, largeThumbnail, largeThumbnailMemory,
            decodeWebP, webpThumbnail, decodeAVIF, encodeWebP, encodeAVIF,
            thumbnailDecodeScale, decodeP3JPEG, decodeSRGBTaggedJPEG, p3Thumbnail,
            loopbackDecode, loopbackThumbnail, loopbackDefault, loopbackDefaultCPU, loopbackAsyncHTTPClient,
            loopbackAsyncHTTPClientCPU, loopbackURLSession, loopbackURLSessionCPU, loaderIdle, loaderReuse,
            loopbackDecodeMemory,
            memoryHitAsync, memoryHitSubscript, diskWrite, diskRead, serverURLPath,
            overhead, createCancel, coalescing,
        ] + concurrency + [streamsChain] + openCombine
}
