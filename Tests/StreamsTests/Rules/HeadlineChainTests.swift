import Streams
import Testing

/// The chain from combine-semantics.md:
/// `thumb.append(full).map { ($0.image, .aspectFill) }.catch { _ in Just((failureImage, .aspectFit)) }.sink { … }`
/// with hand-driven stand-ins for `pipeline.imageStream(with:)`.
@Suite struct HeadlineChainTests {
    struct Image: Equatable { let name: String }
    struct Response { let image: Image }
    enum ContentMode: Equatable { case aspectFill, aspectFit }

    static let failureImage = Image(name: "failure")

    final class Screen {
        var shown: [String] = []
        var completions = 0
    }

    /// Builds the chain exactly as the project uses it and records what is shown.
    func subscribeChain<Thumb: Publisher, Full: Publisher>(
        thumb: Thumb,
        full: Full,
        screen: Screen
    ) -> AnyCancellable
    where Thumb.Output == Response, Full.Output == Response, Thumb.Failure == TestError, Full.Failure == TestError {
        thumb.append(full)
            .map { ($0.image, ContentMode.aspectFill) }
            .catch { _ in Just((Self.failureImage, ContentMode.aspectFit)) }
            .sink(
                receiveCompletion: { _ in screen.completions += 1 },
                receiveValue: { image, mode in screen.shown.append("\(image.name)/\(mode)") }
            )
    }

    @Test func bothSucceedShowsThumbnailThenFullThenFinishes() {
        let thumb = TestPublisher<Response, TestError>()
        let full = TestPublisher<Response, TestError>()
        let screen = Screen()
        let cancellable = subscribeChain(thumb: thumb, full: full, screen: screen)
        thumb.send(Response(image: Image(name: "thumb")))
        thumb.finish()
        full.send(Response(image: Image(name: "full")))
        full.finish()
        #expect(screen.shown == ["thumb/aspectFill", "full/aspectFill"])
        #expect(screen.completions == 1)
        cancellable.cancel()
    }

    @Test func thumbnailFailureShowsFailureImageAndNeverRequestsFull() {
        let thumb = TestPublisher<Response, TestError>()
        let full = TestPublisher<Response, TestError>()
        let screen = Screen()
        let cancellable = subscribeChain(thumb: thumb, full: full, screen: screen)
        thumb.fail(TestError(1))
        #expect(screen.shown == ["failure/aspectFit"])
        #expect(screen.completions == 1)
        #expect(full.subscribeCount == 0)
        cancellable.cancel()
    }

    @Test func fullFailureShowsThumbnailThenFailureImage() {
        let thumb = TestPublisher<Response, TestError>()
        let full = TestPublisher<Response, TestError>()
        let screen = Screen()
        let cancellable = subscribeChain(thumb: thumb, full: full, screen: screen)
        thumb.send(Response(image: Image(name: "thumb")))
        thumb.finish()
        full.fail(TestError(2))
        #expect(screen.shown == ["thumb/aspectFill", "failure/aspectFit"])
        #expect(screen.completions == 1)
        cancellable.cancel()
    }

    @Test func cachedThumbnailIsDeliveredInsideSubscribeThenFullStarts() {
        let thumb = Just(Response(image: Image(name: "cached"))).setFailureType(to: TestError.self)
        let full = TestPublisher<Response, TestError>()
        let screen = Screen()
        let cancellable = subscribeChain(thumb: thumb, full: full, screen: screen)
        // Delivered synchronously, before `sink` returned, and the full request has started.
        #expect(screen.shown == ["cached/aspectFill"])
        #expect(full.subscribeCount == 1)
        #expect(full.subscription?.requests == [.unlimited])
        full.send(Response(image: Image(name: "full")))
        full.finish()
        #expect(screen.shown == ["cached/aspectFill", "full/aspectFill"])
        cancellable.cancel()
    }

    @Test func cancelWhileThumbnailLoadsStopsEverythingAndNeverRequestsFull() {
        let thumb = TestPublisher<Response, TestError>()
        let full = TestPublisher<Response, TestError>()
        let screen = Screen()
        let cancellable = subscribeChain(thumb: thumb, full: full, screen: screen)
        cancellable.cancel()
        #expect(thumb.subscription?.cancelCount == 1)
        // A late answer from the (cancelled) thumbnail load must not get through.
        thumb.send(Response(image: Image(name: "thumb")))
        thumb.finish()
        #expect(screen.shown.isEmpty)
        #expect(screen.completions == 0)
        #expect(full.subscribeCount == 0)
    }
}
