import Foundation
import Testing
@testable import Comet

/// Every transition of ``ImageTaskLifecycle``, legal and refused, without a pipeline.
@Suite("ImageTask's lifecycle")
struct ImageTaskLifecycleTests {
    private let request = ImageRequest(url: URL(string: "https://example.com/a.png"))
    private let response = ImageResponse(
        image: Image(width: 2, height: 2, color: .white), request: ImageRequest(url: nil))

    private func isCancellation(_ outcome: ImageTaskLifecycle.Outcome?) -> Bool {
        if case .failure(.cancelled) = outcome { return true }
        return false
    }

    @Test func aNewTaskIsPendingAndRunning() {
        let lifecycle = ImageTaskLifecycle(priority: .high)
        guard case .pending = lifecycle.state else { Issue.record("state \(lifecycle.state)"); return }
        #expect(lifecycle.publicState == .running)
        #expect(lifecycle.priority == .high)
        #expect(lifecycle.outcome == nil && !lifecycle.isCancelled)
    }

    @Test func aPendingTaskJoinsOnce() {
        var lifecycle = ImageTaskLifecycle(priority: .normal)
        #expect(lifecycle.join() == .subscribe)
        #expect(lifecycle.join() == .stayOut)
        guard case .joined = lifecycle.state else { Issue.record("state \(lifecycle.state)"); return }
        #expect(lifecycle.publicState == .running)
    }

    @Test func aFinishedTaskDoesNotJoin() {
        var lifecycle = ImageTaskLifecycle(priority: .normal)
        _ = lifecycle.finish(.success(response))
        #expect(lifecycle.join() == .stayOut)
    }

    @Test func aCancelledTaskDoesNotJoin() {
        var lifecycle = ImageTaskLifecycle(priority: .normal)
        _ = lifecycle.cancel(request: request)
        #expect(lifecycle.join() == .stayOut)
    }

    @Test func cancellingAPendingTaskFinishesItWithoutLeavingTheGraph() {
        var lifecycle = ImageTaskLifecycle(priority: .normal)
        guard case .finish(let outcome, let leaveGraph) = lifecycle.cancel(request: request) else {
            Issue.record("no finish"); return
        }
        #expect(isCancellation(outcome) && !leaveGraph)
        #expect(lifecycle.isCancelled && lifecycle.publicState == .cancelled)
    }

    @Test func cancellingAJoinedTaskFinishesItAndLeavesTheGraph() {
        var lifecycle = ImageTaskLifecycle(priority: .normal)
        _ = lifecycle.join()
        guard case .finish(let outcome, let leaveGraph) = lifecycle.cancel(request: request) else {
            Issue.record("no finish"); return
        }
        #expect(isCancellation(outcome) && leaveGraph)
    }

    @Test func cancellingTwiceDoesNothingTheSecondTime() {
        var lifecycle = ImageTaskLifecycle(priority: .normal)
        _ = lifecycle.cancel(request: request)
        guard case .none = lifecycle.cancel(request: request) else { Issue.record("cancelled twice"); return }
    }

    @Test func cancellingAFinishedTaskDoesNothing() {
        var lifecycle = ImageTaskLifecycle(priority: .normal)
        _ = lifecycle.join()
        _ = lifecycle.finish(.success(response))
        guard case .none = lifecycle.cancel(request: request) else { Issue.record("cancelled after finishing"); return }
        #expect(!lifecycle.isCancelled && lifecycle.publicState == .completed)
    }

    @Test func aResultFinishesAJoinedTaskAndIsDelivered() {
        var lifecycle = ImageTaskLifecycle(priority: .normal)
        _ = lifecycle.join()
        guard case .deliver(.success(let delivered)) = lifecycle.finish(.success(response)) else {
            Issue.record("not delivered"); return
        }
        #expect(delivered.image.width == 2)
        #expect(lifecycle.publicState == .completed)
    }

    @Test func aResultAfterACancelIsDropped() {
        var lifecycle = ImageTaskLifecycle(priority: .normal)
        _ = lifecycle.join()
        _ = lifecycle.cancel(request: request)
        guard case .none = lifecycle.finish(.success(response)) else {
            Issue.record("a late result was delivered"); return
        }
        #expect(isCancellation(lifecycle.outcome))
    }

    @Test func aSecondResultIsDropped() {
        var lifecycle = ImageTaskLifecycle(priority: .normal)
        _ = lifecycle.finish(.failure(.dataMissingInCache(request: request)))
        guard case .none = lifecycle.finish(.success(response)) else { Issue.record("finished twice"); return }
        guard case .failure = lifecycle.outcome else { Issue.record("outcome replaced"); return }
        #expect(lifecycle.publicState == .completed)
    }

    @Test func theWorksCancellationReadsAsCancelledThoughNoCancelWasCalled() {
        var lifecycle = ImageTaskLifecycle(priority: .normal)
        _ = lifecycle.join()
        _ = lifecycle.finish(.failure(.cancelled(request: request)))
        #expect(!lifecycle.isCancelled)
        #expect(lifecycle.publicState == .cancelled)
    }

    @Test func aNewPriorityIsPassedOnWhileRunning() {
        var lifecycle = ImageTaskLifecycle(priority: .normal)
        #expect(lifecycle.setPriority(.high) == .high)
        _ = lifecycle.join()
        #expect(lifecycle.setPriority(.low) == .low)
        #expect(lifecycle.priority == .low)
    }

    @Test func theSamePriorityIsNotPassedOn() {
        var lifecycle = ImageTaskLifecycle(priority: .normal)
        #expect(lifecycle.setPriority(.normal) == nil)
    }

    /// As in Nuke: the value is kept, though there is no work left to re-order.
    @Test func aFinishedTaskKeepsANewPriorityWithoutPassingItOn() {
        var lifecycle = ImageTaskLifecycle(priority: .normal)
        _ = lifecycle.finish(.success(response))
        #expect(lifecycle.setPriority(.high) == nil)
        #expect(lifecycle.priority == .high)
    }
}
