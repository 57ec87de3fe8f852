import Benchmark
import BenchmarkSupport
import Comet

/// The Streams side of the OpenCombine rows; OpenCombineBenchmarks.swift has the same code on
/// OpenCombine (each file imports one framework, so the names resolve to it).
enum StreamsVsOpenCombineBenchmarks {
    static func register() {
        let values = Array(0..<Figures.openCombineChain.operations)
        Benchmark(Figures.openCombineChain.name, configuration: .suite()) { _ in
            var sum = 0
            let cancellable = values.publisher
                .map { $0 &* 3 }
                .filter { $0 % 2 == 0 }
                .compactMap { $0 % 5 == 0 ? nil : $0 &+ 1 }
                .sink { sum &+= $0 }
            blackHole(sum)
            blackHole(cancellable)
        }
        for (figure, subscribers) in zip(Figures.openCombineFanOut, [1, 10, 100]) {
            Benchmark(figure.name, configuration: .suite()) { _ in
                let subject = PassthroughSubject<Int, Never>()
                var sum = 0
                let cancellables = (0..<subscribers).map { _ in subject.map { $0 &+ 1 }.sink { sum &+= $0 } }
                for value in 0..<figure.operations { subject.send(value) }
                blackHole(sum)
                blackHole(cancellables)
            }
        }
        let operations = 1000
        Benchmark(Figures.openCombineFlatMap.name, configuration: .suite()) { _ in
            var sum = 0
            let cancellable = (0..<operations).publisher.flatMap { Just($0) }.sink { sum &+= $0 }
            blackHole(sum)
            blackHole(cancellable)
        }
        Benchmark(Figures.openCombineImageStreamSetup.name, configuration: .suite()) { _ in
            var sum = 0
            for value in 0..<operations {
                let cancellable = Just(value).append(Just(value &+ 1)).map { $0 &* 2 }.catch { _ in Just(0) }.sink {
                    sum &+= $0
                }
                blackHole(cancellable)
            }
            blackHole(sum)
        }
        Benchmark(Figures.openCombineImageStreamError.name, configuration: .suite()) { _ in
            var sum = 0
            for value in 0..<operations {
                let cancellable = Just(value).setFailureType(to: Error.self)
                    .append(Just(value &+ 1).setFailureType(to: Error.self))
                    .map { $0 &* 2 }
                    .catch { _ in Just(0) }
                    .sink { sum &+= $0 }
                blackHole(cancellable)
            }
            blackHole(sum)
        }
        Benchmark(Figures.openCombineMerge.name, configuration: .suite()) { _ in
            let subjects = (0..<10).map { _ in PassthroughSubject<Int, Never>() }
            var sum = 0
            let cancellable = Publishers.MergeMany(subjects).sink { sum &+= $0 }
            for value in 0..<(operations / 10) {
                for subject in subjects { subject.send(value) }
            }
            blackHole(sum)
            blackHole(cancellable)
        }
        Benchmark(Figures.openCombineCombineLatest.name, configuration: .suite()) { _ in
            let left = PassthroughSubject<Int, Never>()
            let right = PassthroughSubject<Int, Never>()
            var sum = 0
            let cancellable = left.combineLatest(right).sink { sum &+= $0 &+ $1 }
            for value in 0..<operations {
                left.send(value)
                right.send(value)
            }
            blackHole(sum)
            blackHole(cancellable)
        }
        Benchmark(Figures.openCombineZip.name, configuration: .suite()) { _ in
            let left = PassthroughSubject<Int, Never>()
            let right = PassthroughSubject<Int, Never>()
            var sum = 0
            let cancellable = left.zip(right).sink { sum &+= $0 &+ $1 }
            for value in 0..<operations {
                left.send(value)
                right.send(value)
            }
            blackHole(sum)
            blackHole(cancellable)
        }
        Benchmark(Figures.openCombineSwitchToLatest.name, configuration: .suite()) { _ in
            let subject = PassthroughSubject<Int, Never>()
            var sum = 0
            let cancellable = subject.map { Just($0) }.switchToLatest().sink { sum &+= $0 }
            for value in 0..<operations { subject.send(value) }
            blackHole(sum)
            blackHole(cancellable)
        }
        Benchmark(Figures.openCombineReceiveOn.name, configuration: .suite()) { _ in
            let subject = PassthroughSubject<Int, Never>()
            var sum = 0
            let cancellable = subject.receive(on: ImmediateScheduler.shared).sink { sum &+= $0 }
            for value in 0..<operations { subject.send(value) }
            blackHole(sum)
            blackHole(cancellable)
        }
        Benchmark(Figures.openCombineSetup.name, configuration: .suite()) { _ in
            let subject = PassthroughSubject<Int, Never>()
            for _ in 0..<operations {
                let cancellable = subject.map { $0 &+ 1 }.filter { $0 > 0 }.compactMap { $0 }.removeDuplicates().scan(
                    0, &+
                )
                .sink { blackHole($0) }
                cancellable.cancel()
            }
        }
    }
}
