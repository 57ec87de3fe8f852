import Streams
import Testing

/// Combine's `Result.Publisher` and `Optional.Publisher` evaluate their operators when applied
/// and return publishers of the same kind, so the outcome can be read at once.
@Suite struct ResultOptionalOperatorTests {
    @Test func resultOperatorsEvaluateAtOnceOnASuccess() {
        let success = Result<Int, TestError>.Publisher(4)
        #expect(success.map { $0 * 2 }.result == .success(8))
        #expect(success.count().result == .success(1))
        #expect(success.collect().result == .success([4]))
        #expect(success.contains(4).result == .success(true))
        #expect(success.allSatisfy { $0 > 5 }.result == .success(false))
        #expect(success.reduce(2, +).result == .success(6))
        #expect(success.scan(2, +).result == .success(6))
        #expect(success.replaceError(with: 0).result == .success(4))
        #expect(success.min().result == .success(4))
    }

    @Test func resultOperatorsKeepAFailureAndSkipTheirClosures() {
        let failure = Result<Int, TestError>.Publisher(TestError(1))
        var calls = 0
        #expect(
            failure.map {
                calls += 1; return $0
            }.result == .failure(TestError(1)))
        #expect(
            failure.contains {
                calls += 1; return $0 > 0
            }.result == .failure(TestError(1)))
        #expect(failure.replaceEmpty(with: 3).result == .failure(TestError(1)))
        #expect(failure.retry(3).result == .failure(TestError(1)))
        #expect(failure.replaceError(with: 7).result == .success(7))
        #expect(failure.mapError { TestError($0.code + 1) }.result == .failure(TestError(2)))
        #expect(calls == 0)
    }

    @Test func resultThrowingOperatorsCarryTheThrownError() throws {
        let success = Result<Int, TestError>.Publisher(4)
        var comparisons = 0
        let throwing: (Int, Int) throws -> Bool = { _, _ in
            comparisons += 1; throw TestError(9)
        }
        #expect(throws: TestError(9)) { try success.tryMin(by: throwing).result.get() }
        #expect(throws: TestError(9)) { try success.tryRemoveDuplicates(by: throwing).result.get() }
        #expect(comparisons == 2)
        #expect(try success.tryMap { $0 + 1 }.result.get() == 5)
        #expect(try success.tryReduce(1, *).result.get() == 4)
        #expect(throws: TestError(3)) {
            try Result<Int, TestError>.Publisher(TestError(3)).tryAllSatisfy { _ in true }.result.get()
        }
    }

    @Test func resultIgnoreOutputFinishesAtOnce() {
        let empty: Empty<Int, TestError> = Result<Int, TestError>.Publisher(TestError(1)).ignoreOutput()
        #expect(empty.completeImmediately)
    }

    @Test func optionalOperatorsEvaluateAtOnce() {
        let some = Optional<Int>.Publisher(42)
        let none = Optional<Int>.Publisher(nil)
        var calls = 0
        #expect(
            some.map {
                calls += 1; return String($0)
            } == Optional<String>.Publisher("42"))
        #expect(
            none.map {
                calls += 1; return String($0)
            } == Optional<String>.Publisher(nil))
        #expect(calls == 1)
        #expect(some.filter { $0 > 50 } == Optional.Publisher(nil))
        #expect(some.drop { $0 == 42 } == Optional.Publisher(nil))
        #expect(some.count() == Optional.Publisher(1))
        #expect(none.count() == Optional.Publisher(nil))
        #expect(none.collect() == Optional.Publisher([]))
        #expect(some.replaceEmpty(with: 1) == Just(42))
        #expect(none.replaceEmpty(with: 1) == Just(1))
        #expect(some.dropFirst(0) == some)
        #expect(some.dropFirst() == Optional.Publisher(nil))
        #expect(some.prefix(0) == Optional.Publisher(nil))
        #expect(some.output(at: 0) == some)
        #expect(some.output(in: 0..<1) == some)
        #expect(some.output(in: 1..<3) == Optional.Publisher(nil))
        #expect(some.reduce(1, +) == Optional.Publisher(43))
    }
}
