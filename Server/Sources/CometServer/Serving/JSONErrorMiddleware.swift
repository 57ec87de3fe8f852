import Hummingbird

/// Turns errors thrown below it (an unknown route's 404, a method that is not allowed, anything
/// unexpected) into the service's JSON error answers, so every error a client sees has the same
/// shape.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            let status = Int(error.status.code)
            let code = status == 404 ? "not_found" : status == 405 ? "method_not_allowed" : "http_\(status)"
            let message = status == 404 ? "no such route: \(request.uri.path)" : error.status.reasonPhrase
            return ThumbnailServer.response(for: ServiceError(status: status, code: code, message: message))
        } catch {
            return ThumbnailServer.response(for: ServiceError.from(error))
        }
    }
}
