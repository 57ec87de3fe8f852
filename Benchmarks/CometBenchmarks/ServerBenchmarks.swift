import Benchmark
import BenchmarkSupport
import CometServer
import Foundation

/// comet-server's URL path, the part of a cache hit that is the service's own (the rest is
/// Hummingbird's HTTP and the store's lookup): a signed URL with 4 options and a 60-character
/// source, checked and keyed as the server does before it asks its result store.
enum ServerBenchmarks {
    static func register() {
        let figure = Figures.serverURLPath
        let operations = figure.operations
        let signer = try! URLSigner(hexKey: "736563726574", hexSalt: "68656c6c6f")
        // A constant, as the server's is: a captured variable would be copied out of its box on
        // every request, which the server never does.
        let configuration = {
            var configuration = ServerConfiguration()
            configuration.signer = signer
            return configuration
        }()
        let source = URL(string: "https://images.example.com/catalogue/2024/spring/look-42.jpg")!
        precondition(source.absoluteString.utf8.count == 60)
        let path = ThumbnailPath.make(
            options: "rs:fill:256:256/q:80/f:webp/bg:ffffff", source: source, plain: true, signer: signer)
        let signature = String(path.split(separator: "/")[0])
        let signedPart = String(path.dropFirst(signature.utf8.count + 1))
        Benchmark(figure.name, configuration: .suite()) { benchmark in
            for _ in 0..<operations {
                do {
                    let request = try ThumbnailRequest(path: path, accept: nil, configuration: configuration)
                    blackHole(request.storeKey)
                } catch {
                    benchmark.error("\(error)")
                }
            }
        }
        Benchmark(figure.referenceName, configuration: .suite()) { benchmark in
            for _ in 0..<operations where !signer.isValid(signature, for: signedPart) {
                benchmark.error("the signature does not match")
            }
        }
    }
}
