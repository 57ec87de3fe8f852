import Benchmark
import BenchmarkSupport
import Comet

/// What a Streams chain costs per value: a synchronous sequence publisher through map, filter
/// and compactMap into a sink, against the same arithmetic in a plain loop.
enum StreamsBenchmarks {
    static func register() {
        let figure = Figures.streamsChain
        let values = Array(0..<figure.operations)
        Benchmark(figure.name, configuration: .suite()) { _ in
            var sum = 0
            let cancellable = values.publisher
                .map { $0 &* 3 }
                .filter { $0 % 2 == 0 }
                .compactMap { $0 % 5 == 0 ? nil : $0 &+ 1 }
                .sink { sum &+= $0 }
            blackHole(sum)
            blackHole(cancellable)
        }
        Benchmark(figure.referenceName, configuration: .suite()) { _ in
            var sum = 0
            for value in values {
                let tripled = value &* 3
                guard tripled % 2 == 0, tripled % 5 != 0 else { continue }
                sum &+= tripled &+ 1
            }
            blackHole(sum)
        }
    }
}
