import Streams
import Testing

/// Optional.Publisher, Result.Publisher and Record.
@Suite struct ConveniencePublisherTests {
    @Test func optionalPublisherSendsItsValueOnDemandThenFinishes() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        Optional(3).publisher.subscribe(subscriber)
        #expect(subscriber.log == ["sub"])
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "3", "finished"])
    }

    @Test func emptyOptionalPublisherJustFinishes() {
        let subscriber = TrackingSubscriber<Int, Never>()
        Int?.none.publisher.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "finished"])
    }

    @Test func resultPublisherSendsASuccessOrFails() {
        let success = TrackingSubscriber<Int, TestError>()
        let failure = TrackingSubscriber<Int, TestError>()
        Result<Int, TestError>.success(4).publisher.subscribe(success)
        Result<Int, TestError>.failure(TestError(4)).publisher.subscribe(failure)
        #expect(success.log == ["sub", "4", "finished"])
        #expect(failure.log == ["sub", "failure(E4)"])
    }

    @Test func recordPlaysItsValuesOnDemandThenItsCompletion() {
        let record = Record<Int, TestError> { recording in
            recording.receive(1)
            recording.receive(2)
            recording.receive(completion: .failure(TestError(2)))
        }
        let subscriber = TrackingSubscriber<Int, TestError>(initialDemand: .max(1))
        record.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "1"])
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "1", "2", "failure(E2)"])
    }

    @Test func recordPlaysTheSameRecordingToEverySubscriber() {
        let record = Record<Int, Never>(output: [5, 6], completion: .finished)
        let first = TrackingSubscriber<Int, Never>()
        let second = TrackingSubscriber<Int, Never>()
        record.subscribe(first)
        record.subscribe(second)
        #expect(first.log == ["sub", "5", "6", "finished"])
        #expect(second.log == first.log)
    }
}
