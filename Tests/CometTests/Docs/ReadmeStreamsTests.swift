import Streams
import StreamsTesting
import Testing

/// README and Streams.docc/UsingStreams.md: the virtual-time example, verbatim (DocsCodeBlocksTests checks it is here).
func readmeStreamsDebounce() -> [String] {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<String, Never>()
    var seen: [String] = []
    let cancellable = subject.debounce(for: .milliseconds(300), scheduler: scheduler).sink { seen.append($0) }
    subject.send("c"); subject.send("co"); subject.send("com")
    scheduler.advance(by: .milliseconds(300))  // seen == ["com"]
    cancellable.cancel()
    return seen
}

@Suite struct ReadmeStreamsTests {
    @Test func theDebounceExampleSeesOnlyTheLastValue() {
        #expect(readmeStreamsDebounce() == ["com"])
    }
}
