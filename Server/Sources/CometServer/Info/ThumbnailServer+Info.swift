import Hummingbird

extension ThumbnailServer {
    /// Adds `GET` and `HEAD` `/info/{signature}/{options…}/{source}` (imgproxy's grammar): the source's
    /// ``SourceInfo`` as JSON (or 304, or a JSON error), stored and revalidated as results are.
    func addInfoRoutes(to router: Router<ThumbnailRequestContext>) {
        let info: @Sendable (Request, ThumbnailRequestContext) async -> Response = {
            [responder, connections] request, context in
            let ifNoneMatch = request.headers[.ifNoneMatch]
            var response: Response
            do {
                let info = try InfoRequest(
                    path: String(request.uri.path.dropFirst(Self.infoPrefix.count)),
                    configuration: responder.configuration)
                if let answer = responder.storedInfo(for: info, ifNoneMatch: ifNoneMatch) {
                    response = Self.response(for: answer)
                } else {
                    let answer = try await connections.cancellingOnDisconnect(of: context.channel) {
                        try await responder.info(info, ifNoneMatch: ifNoneMatch)
                    }
                    response = Self.response(for: answer)
                }
                // The answer describes the source; it holds no pixels to say the colour of.
                response.headers[.cometColor] = nil
            } catch {
                response = Self.response(for: ServiceError.from(error))
            }
            return request.method == .head ? Self.headResponse(response) : response
        }
        router.get("/info/**", use: info)
        router.head("/info/**", use: info)
    }

    /// What an `/info` URL's path starts with, before its signature segment.
    static let infoPrefix = "/info"
}
