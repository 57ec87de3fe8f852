import Foundation
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

    @Test func aRecordsSubscriptionShowsNothingLeftToPlayOnceItEnded() throws {
        let subscriber = TrackingSubscriber<Int, Never>()
        Record<Int, Never>(output: [5, 6], completion: .finished).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        let sequence = Mirror(reflecting: subscription).children.first { $0.label == "sequence" }?.value
        #expect(sequence.map { String(describing: $0) } == "[]")
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

    @Test func aRecordRoundTripsThroughCodableInCombinesShape() throws {
        let record = Record<Int, TestCodableError>(output: [1, 2], completion: .finished)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(record)
        #expect(
            String(decoding: data, as: UTF8.self) == #"{"recording":{"completion":{"success":true},"output":[1,2]}}"#)
        let decoded = try JSONDecoder().decode(Record<Int, TestCodableError>.self, from: data)
        #expect(decoded.recording.output == [1, 2])
        #expect(decoded.recording.completion == .finished)
    }

    @Test func aDecodedRecordingNeedsBothItsOutputAndItsCompletion() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                Record<Int, TestCodableError>.Recording.self, from: Data(#"{"completion":{"success":true}}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Record<Int, TestCodableError>.Recording.self, from: Data(#"{"output":[1]}"#.utf8))
        }
    }

    @Test func optionalAndResultPublishersAreEqualWhenTheirValuesAre() {
        #expect(Optional(1).publisher == Optional(1).publisher)
        #expect(Optional(1).publisher != Optional<Int>.none.publisher)
        #expect(Result<Int, TestError>.success(1).publisher == Result<Int, TestError>.success(1).publisher)
        #expect(Result<Int, TestError>.success(1).publisher != Result<Int, TestError>.failure(TestError(1)).publisher)
    }

    @Test func aRecordSubscriptionIsNamedAfterItsOutputUntilItEnds() {
        let subscriber = TrackingSubscriber<Int, TestError>(initialDemand: .max(1))
        Record<Int, TestError>(output: [1, 2], completion: .failure(TestError(3))).subscribe(subscriber)
        #expect("\(subscriber.subscription.map { String(describing: $0) } ?? "")" == "[1, 2]")
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "1", "2", "failure(E3)"])
        #expect("\(subscriber.subscription.map { String(describing: $0) } ?? "")" == "Cancelled Events")

        let empty = TrackingSubscriber<Int, TestError>()
        Record<Int, TestError>(output: [], completion: .finished).subscribe(empty)
        #expect("\(empty.subscription.map { String(describing: $0) } ?? "")" == "Empty")
        #expect(empty.log == ["sub", "finished"])
    }
}

/// A codable failure, for recordings that are coded.
private struct TestCodableError: Error, Codable, Equatable {}
