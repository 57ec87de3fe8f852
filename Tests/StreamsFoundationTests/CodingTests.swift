import Foundation
import Streams
import StreamsFoundation
import Testing

@Suite struct CodingTests {
    struct Point: Codable, Equatable {
        let x: Int
        let y: Int
    }

    @Test func encodeThenDecodeRoundTripsThroughJSON() {
        var received: [Point] = []
        var completion: Subscribers.Completion<Error>?
        let cancellable = [Point(x: 1, y: 2), Point(x: 3, y: 4)].publisher
            .encode(encoder: JSONEncoder())
            .decode(type: Point.self, decoder: JSONDecoder())
            .sink(receiveCompletion: { completion = $0 }, receiveValue: { received.append($0) })
        #expect(received == [Point(x: 1, y: 2), Point(x: 3, y: 4)])
        if case .finished? = completion {
        } else {
            Issue.record("expected .finished, got \(String(describing: completion))")
        }
        cancellable.cancel()
    }

    @Test func aDecodingErrorFailsTheStreamAndCancelsTheUpstream() {
        let subject = PassthroughSubject<Data, Never>()
        var cancelled = false
        var failure: Error?
        var received: [Point] = []
        let cancellable =
            subject
            .handleEvents(receiveCancel: { cancelled = true })
            .decode(type: Point.self, decoder: JSONDecoder())
            .sink(
                receiveCompletion: { if case .failure(let error) = $0 { failure = error } },
                receiveValue: { received.append($0) })
        subject.send(Data("{\"x\":1}".utf8))
        subject.send(Data("{\"x\":1,\"y\":1}".utf8))
        #expect(failure is DecodingError)
        #expect(cancelled)
        #expect(received.isEmpty)
        cancellable.cancel()
    }

    @Test func propertyListCodersConformToo() throws {
        var decoded: [Point] = []
        let cancellable = Just(Point(x: 5, y: 6))
            .encode(encoder: PropertyListEncoder())
            .decode(type: Point.self, decoder: PropertyListDecoder())
            .sink(receiveCompletion: { _ in }, receiveValue: { decoded.append($0) })
        #expect(decoded == [Point(x: 5, y: 6)])
        cancellable.cancel()
    }

    @Test func completionsRoundTripThroughCodable() throws {
        let finished: Subscribers.Completion<CodableError> = .finished
        let failed: Subscribers.Completion<CodableError> = .failure(CodableError(code: 3))
        for completion in [finished, failed] {
            let data = try JSONEncoder().encode(completion)
            #expect(try JSONDecoder().decode(Subscribers.Completion<CodableError>.self, from: data) == completion)
        }
    }

    struct CodableError: Error, Codable, Equatable {
        let code: Int
    }
}
