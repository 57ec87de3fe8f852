extension Publishers {
    /// A publisher that publishes the value of a key path of each upstream element.
    public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The key path of a property on the upstream's output.
        public let keyPath: KeyPath<Upstream.Output, Output>

        /// Creates a key-path-reading publisher.
        public init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
            self.upstream = upstream
            self.keyPath = keyPath
        }

        /// Subscribes a mapping subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let keyPath = self.keyPath
            upstream.subscribe(
                PassThrough(
                    downstream: subscriber,
                    name: "ValueForKey",
                    reflect: { [("keyPath", keyPath)] },
                    value: { input, downstream in downstream.receive(input[keyPath: keyPath]) },
                    completion: { $0 }
                )
            )
        }
    }

    /// A publisher that publishes the values of two key paths of each upstream element, as a
    /// tuple.
    public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
        /// A tuple of the two properties.
        public typealias Output = (Output0, Output1)
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The key path of the first property.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// The key path of the second property.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        /// Creates a publisher reading two key paths.
        public init(
            upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>, keyPath1: KeyPath<Upstream.Output, Output1>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
        }

        /// Subscribes a mapping subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (keyPath0, keyPath1) = (self.keyPath0, self.keyPath1)
            upstream.subscribe(
                PassThrough(
                    downstream: subscriber,
                    name: "ValueForKeys",
                    reflect: { [("keyPath0", keyPath0), ("keyPath1", keyPath1)] },
                    value: { input, downstream in
                        downstream.receive((input[keyPath: keyPath0], input[keyPath: keyPath1]))
                    },
                    completion: { $0 }
                )
            )
        }
    }

    /// A publisher that publishes the values of three key paths of each upstream element, as a
    /// tuple.
    public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
        /// A tuple of the three properties.
        public typealias Output = (Output0, Output1, Output2)
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The key path of the first property.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// The key path of the second property.
        public let keyPath1: KeyPath<Upstream.Output, Output1>
        /// The key path of the third property.
        public let keyPath2: KeyPath<Upstream.Output, Output2>

        /// Creates a publisher reading three key paths.
        public init(
            upstream: Upstream,
            keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>,
            keyPath2: KeyPath<Upstream.Output, Output2>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
            self.keyPath2 = keyPath2
        }

        /// Subscribes a mapping subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (keyPath0, keyPath1, keyPath2) = (self.keyPath0, self.keyPath1, self.keyPath2)
            upstream.subscribe(
                PassThrough(
                    downstream: subscriber,
                    name: "ValueForKeys",
                    reflect: { [("keyPath0", keyPath0), ("keyPath1", keyPath1), ("keyPath2", keyPath2)] },
                    value: { input, downstream in
                        downstream.receive(
                            (input[keyPath: keyPath0], input[keyPath: keyPath1], input[keyPath: keyPath2]))
                    },
                    completion: { $0 }
                )
            )
        }
    }
}

extension Publisher {
    /// Publishes the value of a key path.
    public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
    }

    /// Publishes the values of two key paths as a tuple.
    public func map<T0, T1>(_ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>)
        -> Publishers.MapKeyPath2<Self, T0, T1>
    {
        Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
    }

    /// Publishes the values of three key paths as a tuple.
    public func map<T0, T1, T2>(
        _ keyPath0: KeyPath<Output, T0>,
        _ keyPath1: KeyPath<Output, T1>,
        _ keyPath2: KeyPath<Output, T2>
    ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
        Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
    }
}
