@testable import CometRedis
import Testing

/// Every transition of ``LeaseFlight``, with a hand-moved clock and no Redis.
@Suite("The result store's lease flight")
struct LeaseFlightTests {
    private let stored = StoredResult(bytes: [1, 2, 3], contentType: "image/png", etag: "\"e\"")
    private let start = ContinuousClock.now

    private func flight() -> LeaseFlight {
        LeaseFlight(
            leaseDuration: .seconds(10), initialPollInterval: .milliseconds(5), maximumPollInterval: .milliseconds(40))
    }

    /// A flight that lost the lease at `start`.
    private func waitingFlight() -> LeaseFlight {
        var flight = flight()
        _ = flight.lookedUp(nil, now: start)
        _ = flight.contended(won: false, now: start)
        return flight
    }

    @Test func itStartsByLookingUp() {
        #expect(flight().start() == .lookUp)
        #expect(flight().state == .lookingUp)
    }

    @Test func aStoredResultIsTheAnswer() {
        var flight = flight()
        #expect(flight.lookedUp(stored, now: start) == .answer(stored))
        #expect(flight.state == .done)
    }

    @Test func aMissContendsForTheLease() {
        var flight = flight()
        #expect(flight.lookedUp(nil, now: start) == .takeLease)
        #expect(flight.state == .contending)
    }

    @Test func winningTheLeaseProducesAndStores() {
        var flight = flight()
        _ = flight.lookedUp(nil, now: start)
        #expect(flight.contended(won: true, now: start) == .produceAndStore)
        #expect(flight.state == .producing && !flight.hasWaited)
    }

    @Test func losingTheLeasePollsAtTheInitialInterval() {
        let flight = waitingFlight()
        #expect(flight.state == .waiting(interval: .milliseconds(5)))
        #expect(flight.hasWaited)
    }

    @Test func pollsBackOffUpToTheMaximum() {
        var flight = waitingFlight()
        let intervals = (1...4).map { step in
            flight.polled(result: nil, leaseHeld: true, now: start + .milliseconds(step))
        }
        #expect(
            intervals == [
                .poll(after: .milliseconds(10)), .poll(after: .milliseconds(20)),
                .poll(after: .milliseconds(40)), .poll(after: .milliseconds(40)),
            ])
    }

    @Test func aPeersResultIsTheAnswer() {
        var flight = waitingFlight()
        #expect(flight.polled(result: stored, leaseHeld: false, now: start) == .answer(stored))
        #expect(flight.state == .done)
    }

    @Test func aLeaseGoneWithoutAResultIsContendedAgain() {
        var flight = waitingFlight()
        #expect(flight.polled(result: nil, leaseHeld: false, now: start) == .takeLease)
        #expect(flight.contended(won: true, now: start) == .produceAndStore)
    }

    @Test func waitingPastTwiceTheLeaseProducesAlone() {
        var flight = waitingFlight()
        #expect(
            flight.polled(result: nil, leaseHeld: true, now: start + .seconds(19)) == .poll(after: .milliseconds(10)))
        #expect(flight.polled(result: nil, leaseHeld: true, now: start + .seconds(20)) == .produceAlone(.waitedTooLong))
    }

    @Test func theDeadlineCountsFromTheLookUpNotFromEachContention() {
        var flight = waitingFlight()
        _ = flight.polled(result: nil, leaseHeld: false, now: start + .seconds(15))
        #expect(flight.contended(won: false, now: start + .seconds(21)) == .produceAlone(.waitedTooLong))
    }

    @Test(arguments: [0, 1, 2])
    func aRedisFailureAtAnyRedisStepProducesAlone(_ step: Int) {
        var flight = flight()
        if step >= 1 { _ = flight.lookedUp(nil, now: start) }
        if step >= 2 { _ = flight.contended(won: false, now: start) }
        #expect(flight.redisFailed() == .produceAlone(.redisFailed))
        #expect(flight.state == .done)
    }

    /// The store never reports a Redis failure while producing (it makes no Redis call then): a
    /// report is its own bug, told apart from a Redis fallback.
    @Test func aFailureReportedWhileProducingEndsTheFlightAsAnUnexpectedEvent() {
        var flight = flight()
        _ = flight.lookedUp(nil, now: start)
        _ = flight.contended(won: true, now: start)
        #expect(flight.redisFailed() == .produceAlone(.unexpectedEvent))
        #expect(flight.state == .done)
    }

    @Test func anAnswerOutOfTurnEndsTheFlightProducingAlone() {
        var flight = flight()
        #expect(flight.contended(won: true, now: start) == .produceAlone(.unexpectedEvent))
        var done = self.flight()
        _ = done.lookedUp(stored, now: start)
        #expect(done.lookedUp(nil, now: start) == .produceAlone(.unexpectedEvent))
        #expect(done.polled(result: stored, leaseHeld: true, now: start) == .produceAlone(.unexpectedEvent))
    }
}
