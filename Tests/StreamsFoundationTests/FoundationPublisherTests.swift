import CometTestSupport
import FlyingFox
import Foundation
import Streams
import StreamsFoundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct FoundationPublisherTests {
    @Test func timerPublishEmitsDatesOnceConnected() async {
        let thread = RunLoopThread()
        defer { thread.stop() }
        let recorder = Recorder<Date>()
        let publisher = Timer.publish(every: 0.01, on: thread.runLoop, in: .default)
        let cancellable = publisher.sink { recorder.append($0) }
        try? await Task.sleep(for: .milliseconds(50))
        #expect(recorder.values.isEmpty)
        let connection = publisher.connect()
        #expect(await eventually { recorder.values.count >= 3 })
        connection.cancel()
        cancellable.cancel()
    }

    @Test func timerPublishAutoconnectStopsWhenTheLastSubscriberCancels() async {
        let thread = RunLoopThread()
        defer { thread.stop() }
        let recorder = Recorder<Date>()
        let cancellable = Timer.publish(every: 0.01, on: thread.runLoop, in: .default).autoconnect().sink {
            recorder.append($0)
        }
        #expect(await eventually { recorder.values.count >= 2 })
        cancellable.cancel()
        try? await Task.sleep(for: .milliseconds(50))
        let count = recorder.values.count
        try? await Task.sleep(for: .milliseconds(50))
        #expect(recorder.values.count == count)
    }

    @Test func notificationsArriveAsValuesWhileDemanded() {
        let center = NotificationCenter()
        let name = Notification.Name("StreamsFoundationTests.ping")
        let sender = NSObject()
        var received: [String] = []
        let cancellable = center.publisher(for: name, object: sender).sink {
            received.append($0.userInfo?["n"] as? String ?? "?")
        }
        center.post(name: name, object: sender, userInfo: ["n": "1"])
        center.post(name: name, object: NSObject(), userInfo: ["n": "other"])
        center.post(name: name, object: sender, userInfo: ["n": "2"])
        cancellable.cancel()
        center.post(name: name, object: sender, userInfo: ["n": "3"])
        #expect(received == ["1", "2"])
    }

    @Test func notificationsWithoutDemandAreDropped() {
        let center = NotificationCenter()
        let name = Notification.Name("StreamsFoundationTests.demand")
        var count = 0
        final class OneAtATime: Subscriber, @unchecked Sendable {
            var subscription: Subscription?
            var onValue: () -> Void = {}
            func receive(subscription: Subscription) { self.subscription = subscription; subscription.request(.max(1)) }
            func receive(_ input: Notification) -> Subscribers.Demand { onValue(); return .none }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let subscriber = OneAtATime()
        subscriber.onValue = { count += 1 }
        center.publisher(for: name).subscribe(subscriber)
        center.post(name: name, object: nil)
        center.post(name: name, object: nil)
        #expect(count == 1)
        subscriber.subscription?.request(.max(1))
        center.post(name: name, object: nil)
        #expect(count == 2)
        subscriber.subscription?.cancel()
    }

    @Test func dataTaskPublisherDeliversTheBodyAndResponseThenFinishes() async throws {
        let server = try await TestServer.start()
        server.handle("/hello") { _ in HTTPResponse(statusCode: .ok, body: Data("hello".utf8)) }
        let session = URLSession(configuration: .ephemeral)
        let recorder = Recorder<String>()
        var request = URLRequest(url: server.url("/hello"))
        request.timeoutInterval = 120
        let cancellable = session.dataTaskPublisher(for: request).sink(
            receiveCompletion: { completion in
                if case .failure(let error) = completion {
                    recorder.append("failure(\(error.code.rawValue))")
                } else {
                    recorder.append("finished")
                }
            },
            receiveValue: { data, response in
                recorder.append(
                    "\((response as? HTTPURLResponse)?.statusCode ?? 0) \(String(decoding: data, as: UTF8.self))")
            }
        )
        #expect(await eventually { recorder.values.count == 2 })
        #expect(recorder.values == ["200 hello", "finished"])
        cancellable.cancel()
        await server.stop()
    }

    @Test func dataTaskPublisherReportsATransportErrorAsURLError() async throws {
        let session = URLSession(configuration: .ephemeral)
        let recorder = Recorder<String>()
        // A closed loopback port: the connection is refused.
        var request = URLRequest(url: URL(string: "http://127.0.0.1:1/")!)
        request.timeoutInterval = 120
        let cancellable = session.dataTaskPublisher(for: request).sink(
            receiveCompletion: { completion in
                if case .failure(let error) = completion {
                    recorder.append(
                        error.code == .cannotConnectToHost
                            ? "failure(cannotConnectToHost)" : "failure(\(error.code.rawValue))")
                } else {
                    recorder.append("finished")
                }
            },
            receiveValue: { _ in recorder.append("value") }
        )
        #expect(await eventually { !recorder.values.isEmpty })
        #expect(recorder.values == ["failure(cannotConnectToHost)"])
        cancellable.cancel()
    }

    @Test func dataTaskPublisherStartsNothingBeforeDemand() async throws {
        let server = try await TestServer.start()
        server.handle("/counted") { _ in HTTPResponse(statusCode: .ok, body: Data()) }
        final class Idle: Subscriber, @unchecked Sendable {
            var subscription: Subscription?
            func receive(subscription: Subscription) { self.subscription = subscription }
            func receive(_ input: (data: Data, response: URLResponse)) -> Subscribers.Demand { .none }
            func receive(completion: Subscribers.Completion<URLError>) {}
        }
        let idle = Idle()
        URLSession(configuration: .ephemeral).dataTaskPublisher(for: server.url("/counted")).subscribe(idle)
        try await Task.sleep(for: .milliseconds(100))
        #expect(server.requestCount(for: "/counted") == 0)
        idle.subscription?.cancel()
        await server.stop()
    }

    @Test func dataTaskPublisherResumesItsTaskAtEveryRequest() throws {
        let task = RecordingDataTask()
        let session = OneTaskSession(task: task)
        final class Holder: Subscriber, @unchecked Sendable {
            var subscription: Subscription?
            func receive(subscription: Subscription) { self.subscription = subscription }
            func receive(_ input: (data: Data, response: URLResponse)) -> Subscribers.Demand { .none }
            func receive(completion: Subscribers.Completion<URLError>) {}
        }
        let holder = Holder()
        session.dataTaskPublisher(for: URL(string: "http://example.invalid/")!).subscribe(holder)
        let subscription = try #require(holder.subscription)
        subscription.request(.max(2))
        subscription.request(.max(1))
        #expect(task.events == ["resume", "resume"])
        #expect(session.madeTasks == 1)
        subscription.cancel()
        #expect(task.events == ["resume", "resume", "cancel"])
    }

    @Test func dataTaskPublishersSubscriptionShowsItsTaskDownstreamPublisherAndDemand() throws {
        let session = OneTaskSession(task: RecordingDataTask())
        let publisher = session.dataTaskPublisher(for: URL(string: "http://example.invalid/")!)
        final class Holder: Subscriber, @unchecked Sendable {
            var subscription: Subscription?
            func receive(subscription: Subscription) { self.subscription = subscription }
            func receive(_ input: (data: Data, response: URLResponse)) -> Subscribers.Demand { .none }
            func receive(completion: Subscribers.Completion<URLError>) {}
        }
        let holder = Holder()
        publisher.subscribe(holder)
        let subscription = try #require(holder.subscription)
        let labels = Mirror(reflecting: subscription).children.map(\.label)
        #expect(labels == ["task", "downstream", "parent", "demand"])
        let demand = Mirror(reflecting: subscription).children.first { $0.label == "demand" }?.value
        #expect(demand.map { String(describing: $0) } == "max(0)")
        subscription.cancel()
    }

    @Test func dataTaskPublisherFailsWithAnUnknownErrorWhenTheTaskEndsWithoutAResponse() throws {
        let task = RecordingDataTask()
        let session = OneTaskSession(task: task)
        var completions: [Subscribers.Completion<URLError>] = []
        let cancellable = session.dataTaskPublisher(for: URL(string: "http://example.invalid/")!)
            .sink(receiveCompletion: { completions.append($0) }, receiveValue: { _ in })
        session.complete(data: Data([1]), response: nil, error: nil)
        #expect(completions.count == 1)
        if case .failure(let error) = completions.first {
            #expect(error.code == .unknown)
        } else {
            Issue.record("no failure")
        }
        cancellable.cancel()
    }

    @Test func timerPublishIgnoresTheToleranceAsCombinesDoes() {
        let publisher = Timer.publish(every: 0.25, tolerance: 0.02, on: .main, in: .default)
        #expect(publisher.interval == 0.25)
        #expect(publisher.tolerance == nil)
    }

    @Test func notificationPublishersAreEqualForTheSameCenterNameAndObject() {
        let center = NotificationCenter()
        let object = NSObject()
        let name = Notification.Name("streams.test")
        #expect(center.publisher(for: name, object: object) == center.publisher(for: name, object: object))
        #expect(center.publisher(for: name, object: object) != center.publisher(for: name, object: NSObject()))
        #expect(center.publisher(for: name) != NotificationCenter().publisher(for: name))
    }
}

/// A data task that records what it is asked to do and never runs.
private final class RecordingDataTask: URLSessionDataTask, @unchecked Sendable {
    private(set) var events: [String] = []
    override func resume() { events.append("resume") }
    override func cancel() { events.append("cancel") }
}

/// A session that hands out one ``RecordingDataTask`` and lets the test complete it.
private final class OneTaskSession: URLSession, @unchecked Sendable {
    private let task: RecordingDataTask
    private var handler: (@Sendable (Data?, URLResponse?, Error?) -> Void)?
    private(set) var madeTasks = 0

    init(task: RecordingDataTask) {
        self.task = task
        super.init(configuration: .ephemeral, delegate: nil, delegateQueue: nil)
    }

    override func dataTask(
        with request: URLRequest,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, Error?) -> Void
    ) -> URLSessionDataTask {
        madeTasks += 1
        handler = completionHandler
        return task
    }

    func complete(data: Data?, response: URLResponse?, error: Error?) {
        handler?(data, response, error)
    }
}
