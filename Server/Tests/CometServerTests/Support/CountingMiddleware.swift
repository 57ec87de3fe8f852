import Hummingbird

/// Counts each request by path before routing it.
struct CountingMiddleware<Context: RequestContext>: RouterMiddleware {
    let counts: RequestCounts
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        counts.add(request.uri.path)
        return try await next(request, context)
    }
}
