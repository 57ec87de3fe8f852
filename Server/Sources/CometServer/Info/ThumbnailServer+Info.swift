import Hummingbird

extension ThumbnailServer {
    /// Adds `GET` and `HEAD` `/info/{signature}/{options}/{base64url(source)}`: the source's
    /// ``SourceInfo`` as JSON (or 304, or a JSON error), stored and revalidated as results are.
    func addInfoRoutes(to router: Router<ThumbnailRequestContext>) {
        let info: @Sendable (Request, ThumbnailRequestContext) async -> Response = {
            [responder, connections] request, context in
            let (signature, options, source) =
                Self.infoSegments(of: request.uri.path)
                ?? {
                    let parameters = context.parameters
                    return (
                        parameters.get("signature") ?? "", parameters.get("options") ?? "",
                        parameters.get("source") ?? ""
                    )
                }()
            let ifNoneMatch = request.headers[.ifNoneMatch]
            var response: Response
            do {
                let info = try InfoRequest(
                    signature: signature, options: options, source: source, configuration: responder.configuration)
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
        router.get("/info/:signature/:options/:source", use: info)
        router.head("/info/:signature/:options/:source", use: info)
    }

    /// The three segments after `/info` of `/info/{signature}/{options}/{source}`, split over the
    /// path's bytes as ``segments(of:)`` splits a thumbnail's; `nil` when they do not split so.
    static func infoSegments(of path: String) -> (String, String, String)? {
        let parts = path.utf8.split(separator: UInt8(ascii: "/"))
        guard parts.count == 4, parts[0].elementsEqual("info".utf8) else { return nil }
        return (String(Substring(parts[1])), String(Substring(parts[2])), String(Substring(parts[3])))
    }
}
