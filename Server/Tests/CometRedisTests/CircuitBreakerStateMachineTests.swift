@testable import CometRedis
import Testing

/// Every transition of ``CircuitBreaker/StateMachine``, refused ones included, with a
/// hand-moved clock.
@Suite("The Redis circuit breaker's state machine")
struct CircuitBreakerStateMachineTests {
    private let start = ContinuousClock.now

    private func closed() -> CircuitBreaker.StateMachine {
        CircuitBreaker.StateMachine(initialBackoff: .seconds(1), maximumBackoff: .seconds(3))
    }

    /// A breaker opened at `start` for 1 s.
    private func opened() -> CircuitBreaker.StateMachine {
        var machine = closed()
        _ = machine.record(failed: true, probe: false, now: start)
        return machine
    }

    /// A breaker whose probe went out 1 s after it opened.
    private func probing() -> CircuitBreaker.StateMachine {
        var machine = opened()
        _ = machine.admit(now: start + .seconds(1))
        return machine
    }

    @Test func aClosedBreakerAdmitsEveryCall() {
        var machine = closed()
        #expect(machine.admit(now: start) == .allowed)
        #expect(machine.admit(now: start) == .allowed)
        #expect(machine.phase == .closed)
    }

    @Test func aSuccessChangesNothingWhileClosed() {
        var machine = closed()
        #expect(machine.record(failed: false, probe: false, now: start) == .none)
        #expect(machine == closed())
    }

    @Test func aFailureOpensItForTheInitialBackoff() {
        var machine = closed()
        #expect(machine.record(failed: true, probe: false, now: start) == .opened(backoff: .seconds(1)))
        #expect(machine.phase == .open(until: start + .seconds(1)))
    }

    @Test func anOpenBreakerRejectsCallsUntilItsBackoffEnds() {
        var machine = opened()
        #expect(machine.admit(now: start + .milliseconds(999)) == .rejected)
        #expect(machine.phase == .open(until: start + .seconds(1)))
    }

    @Test func theFirstCallAfterTheBackoffIsTheProbe() {
        var machine = opened()
        #expect(machine.admit(now: start + .seconds(1)) == .probe)
        #expect(machine.phase == .halfOpen(until: start + .seconds(1)))
    }

    @Test func otherCallsAreRejectedWhileTheProbeIsOut() {
        var machine = probing()
        #expect(machine.admit(now: start + .seconds(5)) == .rejected)
        #expect(machine == probing())
    }

    @Test func theProbesSuccessClosesItAndResetsTheBackoff() {
        var machine = probing()
        _ = machine.record(failed: true, probe: true, now: start + .seconds(1))  // backoff 2 s
        _ = machine.admit(now: start + .seconds(3))
        #expect(machine.record(failed: false, probe: true, now: start + .seconds(3)) == .closed)
        #expect(machine == closed())
    }

    @Test func theProbesFailureReopensItWithTheBackoffDoubled() {
        var machine = probing()
        #expect(machine.record(failed: true, probe: true, now: start + .seconds(1)) == .opened(backoff: .seconds(2)))
        #expect(machine.phase == .open(until: start + .seconds(3)))
    }

    @Test func theBackoffIsCappedAtTheMaximum() {
        var machine = probing()
        _ = machine.record(failed: true, probe: true, now: start + .seconds(1))  // 2 s
        _ = machine.admit(now: start + .seconds(3))
        #expect(machine.record(failed: true, probe: true, now: start + .seconds(3)) == .opened(backoff: .seconds(3)))
        #expect(machine.backoff == .seconds(3))
    }

    @Test func anAbandonedProbeLetsTheNextCallProbe() {
        var machine = probing()
        machine.abandonProbe()
        #expect(machine == opened())
        #expect(machine.admit(now: start + .seconds(1)) == .probe)
    }

    @Test func abandoningAProbeThatIsNotOutChangesNothing() {
        var machine = opened()
        machine.abandonProbe()
        #expect(machine == opened())
        var closedMachine = closed()
        closedMachine.abandonProbe()
        #expect(closedMachine == closed())
    }

    @Test func aLateFailureFromBeforeTheOpeningIsRefused() {
        var machine = opened()
        #expect(machine.record(failed: true, probe: false, now: start + .milliseconds(500)) == .none)
        #expect(machine == opened())
        var halfOpen = probing()
        #expect(halfOpen.record(failed: true, probe: false, now: start + .seconds(2)) == .none)
        #expect(halfOpen == probing())
    }

    @Test func aLateSuccessWhileOpenClosesIt() {
        var machine = opened()
        #expect(machine.record(failed: false, probe: false, now: start + .milliseconds(500)) == .closed)
        #expect(machine == closed())
    }

    @Test func aSuccessThatIsNotTheProbeIsRefusedWhileTheProbeIsOut() {
        var machine = probing()
        #expect(machine.record(failed: false, probe: false, now: start + .seconds(2)) == .none)
        #expect(machine == probing())
    }
}
