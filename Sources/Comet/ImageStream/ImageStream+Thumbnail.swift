import Synchronization

extension ImageStream {
    /// This stream with its failure swallowed: on error it just finishes (values already sent
    /// stay delivered).
    ///
    /// Use it per branch of a chain so one branch's error does not reach the chain's `catch`:
    /// `thumb.append(full.orEmpty)` keeps a good thumbnail on screen when the full image fails,
    /// and `thumb.orEmpty.append(full)` still loads the full image when the thumbnail fails.
    public var orEmpty: Publishers.Catch<ImageStream, Empty<ImageResponse, ImagePipeline.Error>> {
        self.catch { _ in Empty() }
    }
}

extension ImagePipeline {
    /// The thumbnail, then the full image, as one publisher — the chain most screens want, with
    /// the pitfalls of the naive `thumb.append(full)` removed:
    ///
    /// - the full request starts only after the thumbnail finished (or failed);
    /// - a failed thumbnail does not stop the full image (its error is swallowed);
    /// - a failed full image after a delivered thumbnail just finishes, so the thumbnail stays
    ///   (it fails only when no final thumbnail was delivered: the full image's error);
    /// - if the full image is already in the memory cache it is delivered alone, synchronously,
    ///   and the thumbnail is not loaded.
    ///
    /// Each subscription decides afresh (the cache check runs when subscribing).
    public func imageStream(thumbnail: ImageRequest, full: ImageRequest) -> AnyPublisher<ImageResponse, Error> {
        Deferred { [self] () -> AnyPublisher<ImageResponse, Error> in
            let fullStream = imageStream(with: full)
            if memoryCachedImage(for: full) != nil {
                return fullStream.eraseToAnyPublisher()
            }
            let thumbnailShown = Atomic<Bool>(false)
            return imageStream(with: thumbnail)
                .handleEvents(receiveOutput: { response in
                    if !response.isPreview { thumbnailShown.store(true, ordering: .relaxed) }
                })
                .catch { _ in Empty<ImageResponse, Error>() }
                .append(
                    fullStream.catch { error -> AnyPublisher<ImageResponse, Error> in
                        thumbnailShown.load(ordering: .relaxed)
                            ? Empty().eraseToAnyPublisher()
                            : Fail(error: error).eraseToAnyPublisher()
                    }
                )
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }
}
