import Foundation
import Testing
import NukeCompat
import CometTestSupport

@Suite("CancellationTokenTests", .timeLimit(.minutes(10)))
struct CancellationTokenTests {
    @Test func cancelFlagsEveryToken() {
        let source = CancellationTokenSource()
        let first = source.token
        let second = source.token
        #expect(!first.isCancelling)
        source.cancel()
        #expect(source.isCancelling)
        #expect(first.isCancelling && second.isCancelling)
    }

    @Test func registeredClosureRunsOnCancel() {
        let source = CancellationTokenSource()
        let runs = Recorder<Int>()
        source.token.register { runs.append(1) }
        #expect(runs.count == 0)
        source.cancel()
        #expect(runs.count == 1)
    }

    @Test func cancelIsIdempotent() {
        let source = CancellationTokenSource()
        let runs = Recorder<Int>()
        source.token.register { runs.append(1) }
        source.cancel()
        source.cancel()
        #expect(runs.count == 1)
    }

    @Test func registeringAfterCancelRunsSynchronously() {
        let source = CancellationTokenSource()
        source.cancel()
        let runs = Recorder<Int>()
        source.token.register { runs.append(1) }
        #expect(runs.count == 1)
    }

    @Test func concurrentRegistrationAndCancellationRunEachClosureOnce() {
        let source = CancellationTokenSource()
        let runs = Recorder<Int>()
        DispatchQueue.concurrentPerform(iterations: 1000) { index in
            if index == 500 { source.cancel() }
            source.token.register { runs.append(index) }
        }
        source.cancel()
        #expect(Set(runs.all) == Set(0..<1000))
        #expect(runs.count == 1000)
    }
}
