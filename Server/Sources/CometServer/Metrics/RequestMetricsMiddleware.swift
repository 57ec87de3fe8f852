import Hummingbird

/// Counts every response by status and times it, into ``ServerMetrics``.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            metrics.recordRequest(status: response.status.code, duration: ContinuousClock.now - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.recordRequest(status: status, duration: ContinuousClock.now - start)
            throw error
        }
    }
}
