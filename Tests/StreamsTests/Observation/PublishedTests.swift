import Streams
import Testing

@Suite struct PublishedTests {
    final class Model: ObservableObject {
        @Published var count = 0
        @Published var name = "a"
        var plain = 0
    }

    final class Derived: BaseModel {
        @Published var extra = 0
    }

    class BaseModel: ObservableObject {
        @Published var base = 0
    }

    @Test func theProjectedPublisherEmitsTheCurrentValueThenEachNewValue() {
        let model = Model()
        let subscriber = TrackingSubscriber<Int, Never>()
        model.$count.subscribe(subscriber)
        model.count = 1
        model.count = 2
        #expect(subscriber.values == [0, 1, 2])
        #expect(model.count == 2)
    }

    @Test func subscribersAreToldBeforeThePropertyChanges() {
        let model = Model()
        var seen: [(Int, Int)] = []
        let cancellable = model.$count.dropFirst().sink { [unowned model] in seen.append(($0, model.count)) }
        model.count = 5
        #expect(seen.map(\.0) == [5])
        #expect(seen.map(\.1) == [0])
        cancellable.cancel()
    }

    @Test func objectWillChangeFiresBeforeAnyPublishedPropertyChanges() {
        let model = Model()
        var countsSeen: [Int] = []
        let cancellable = model.objectWillChange.sink { [unowned model] in countsSeen.append(model.count) }
        model.count = 1
        model.name = "b"
        model.plain = 9
        #expect(countsSeen == [0, 1])
        cancellable.cancel()
    }

    @Test func objectWillChangeIsOnePublisherPerObject() {
        let model = Model()
        #expect(model.objectWillChange === model.objectWillChange)
        #expect(Model().objectWillChange !== model.objectWillChange)
    }

    @Test func objectWillChangeCoversASuperclassesPublishedProperties() {
        let model = Derived()
        var changes = 0
        let cancellable = model.objectWillChange.sink { changes += 1 }
        model.base = 1
        model.extra = 1
        #expect(changes == 2)
        cancellable.cancel()
    }

    @Test func assignToAPublishedPropertySetsItThroughItsSetter() {
        let model = Model()
        let subject = PassthroughSubject<Int, Never>()
        var changes = 0
        let cancellable = model.objectWillChange.sink { changes += 1 }
        subject.assign(to: &model.$count)
        subject.send(7)
        #expect(model.count == 7)
        #expect(changes == 1)
        cancellable.cancel()
    }

    @Test func anAssignSubscriptionEndsWithTheObject() {
        let upstream = TestPublisher<Int, Never>()
        weak var weakModel: Model?
        do {
            let model = Model()
            weakModel = model
            upstream.assign(to: &model.$count)
            upstream.send(3)
            #expect(model.count == 3)
        }
        #expect(weakModel == nil)
        #expect(upstream.subscription?.cancelCount == 1)
    }
}
