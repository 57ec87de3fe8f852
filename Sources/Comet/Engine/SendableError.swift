/// Carries an error across a `@Sendable` boundary. Errors from loaders and processors are
/// values that are not mutated after they are thrown.
struct SendableError: Error, @unchecked Sendable {
    let error: any Error
    init(_ error: any Error) { self.error = error }
}
