import Foundation
import Testing
import NukeCompat
import CometTestSupport

@Suite("Promise", .serialized, .timeLimit(.minutes(10)))
struct PromiseTests {
    let queue = DispatchQueue(label: "PromiseTests")

    @Test func initClosureRunsSynchronously() {
        let ran = Recorder<Bool>()
        _ = Promise<Int> { _, _ in ran.append(true) }
        #expect(ran.count == 1)
    }

    @Test func firstResolutionWins() {
        let promise = Promise<Int> { fulfill, reject in
            fulfill(1)
            fulfill(2)
            reject(TestError(code: 3))
        }
        #expect(promise.resolution?.value == 1)
        #expect(!promise.isPending)
    }

    @Test func callbacksAreDispatchedAsynchronouslyEvenWhenResolved() async {
        let promise = Promise(value: 7)
        let values = Recorder<Int>()
        queue.suspend()
        promise.then(on: queue) { values.append($0) }
        #expect(values.count == 0, "the callback ran on the registering thread")
        queue.resume()
        #expect(await eventually { values.all == [7] })
    }

    @Test func callbacksDefaultToTheMainQueue() async {
        // Under dispatchMain() Linux drains the main queue on a worker thread, so
        // Thread.isMainThread cannot tell; a queue-specific value can.
        let key = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: key, value: "main")
        let labels = Recorder<String?>()
        Promise(value: 1).then { _ in labels.append(DispatchQueue.getSpecific(key: key)) }
        #expect(await eventually { labels.count == 1 })
        #expect(labels.all == ["main"])
    }

    @Test func observingThenAndCatchReturnSelf() {
        let promise = Promise(value: 1)
        #expect(promise.then(on: queue) { (_: Int) in } === promise)
        #expect(promise.catch(on: queue) { _ in } === promise)
        #expect(promise.then(on: queue, fulfilment: nil, rejection: nil) === promise)
    }

    @Test func mappingThenMakesANewPromise() async {
        let mapped = Promise(value: 2).then(on: queue) { $0 * 10 }
        #expect(await eventually { mapped.resolution?.value == 20 })
    }

    @Test func mappingThenPassesRejectionsThrough() async {
        let mapped = Promise<Int>(error: TestError(code: 5)).then(on: queue) { "\($0)" }
        #expect(await eventually { (mapped.resolution?.error as? TestError) == TestError(code: 5) })
    }

    @Test func promiseReturningThenChains() async {
        let chained = Promise(value: 2).then(on: queue) { value in Promise(value: "v\(value)") }
        #expect(await eventually { chained.resolution?.value == "v2" })
    }

    @Test func recoverIsTheWayBackFromAnError() async {
        let recovered = Promise<Int>(error: TestError(code: 1)).recover(on: queue) { _ in Promise(value: 42) }
        #expect(await eventually { recovered.resolution?.value == 42 })
    }

    @Test func catchReceivesTheRejection() async {
        let errors = Recorder<Int>()
        Promise<Int>(error: TestError(code: 9)).catch(on: queue) { errors.append(($0 as? TestError)?.code ?? -1) }
        #expect(await eventually { errors.all == [9] })
    }

    @Test func callbackQueueSettingChangesTheDefault() async {
        let key = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: key, value: "main")
        let labels = Recorder<String?>()
        // The guide's block; restored at once (other suites run meanwhile and expect .main).
        Nuke.callbackQueue = DispatchQueue(label: "image-callbacks")
        Promise(value: 1).then { _ in labels.append(DispatchQueue.getSpecific(key: key)) }
        Nuke.callbackQueue = .main
        #expect(await eventually { labels.count == 1 })
        #expect(labels.all == [nil], "the callback ran on the main queue")
    }
}
