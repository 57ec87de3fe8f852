/// The subscription of the zip and combineLatest publishers, for two to four upstreams: the
/// same engine, stores and sides; only what a combination takes from each store differs (zip
/// takes each upstream's oldest waiting value, combineLatest reads each one's latest).
extension ComboEngine {
    /// Hands `downstream` its subscription, then subscribes to `a` and `b`, in order.
    @inlinable
    static func subscribe<A: Publisher, B: Publisher>(_ downstream: Downstream, zip: Bool, _ a: A, _ b: B)
    where Downstream.Input == (A.Output, B.Output), A.Failure == Failure, B.Failure == Failure {
        let engine = ComboEngine(downstream: downstream, zip: zip)
        let aStore = engine.store(A.Output.self)
        let bStore = engine.store(B.Output.self)
        engine.start(
            downstream, combine: zip ? { (aStore.take(), bStore.take()) } : { (aStore.latest(), bStore.latest()) })
        a.subscribe(ComboSide(inner: engine, store: aStore))
        b.subscribe(ComboSide(inner: engine, store: bStore))
    }

    /// Hands `downstream` its subscription, then subscribes to `a`, `b` and `c`, in order.
    @inlinable
    static func subscribe<A: Publisher, B: Publisher, C: Publisher>(
        _ downstream: Downstream, zip: Bool, _ a: A, _ b: B, _ c: C
    )
    where
        Downstream.Input == (A.Output, B.Output, C.Output), A.Failure == Failure, B.Failure == Failure,
        C.Failure == Failure
    {
        let engine = ComboEngine(downstream: downstream, zip: zip)
        let aStore = engine.store(A.Output.self)
        let bStore = engine.store(B.Output.self)
        let cStore = engine.store(C.Output.self)
        engine.start(
            downstream,
            combine: zip
                ? { (aStore.take(), bStore.take(), cStore.take()) }
                : { (aStore.latest(), bStore.latest(), cStore.latest()) }
        )
        a.subscribe(ComboSide(inner: engine, store: aStore))
        b.subscribe(ComboSide(inner: engine, store: bStore))
        c.subscribe(ComboSide(inner: engine, store: cStore))
    }

    /// Hands `downstream` its subscription, then subscribes to `a`, `b`, `c` and `d`, in order.
    @inlinable
    static func subscribe<A: Publisher, B: Publisher, C: Publisher, D: Publisher>(
        _ downstream: Downstream, zip: Bool, _ a: A, _ b: B, _ c: C, _ d: D
    )
    where
        Downstream.Input == (A.Output, B.Output, C.Output, D.Output), A.Failure == Failure, B.Failure == Failure,
        C.Failure == Failure, D.Failure == Failure
    {
        let engine = ComboEngine(downstream: downstream, zip: zip)
        let aStore = engine.store(A.Output.self)
        let bStore = engine.store(B.Output.self)
        let cStore = engine.store(C.Output.self)
        let dStore = engine.store(D.Output.self)
        engine.start(
            downstream,
            combine: zip
                ? { (aStore.take(), bStore.take(), cStore.take(), dStore.take()) }
                : { (aStore.latest(), bStore.latest(), cStore.latest(), dStore.latest()) }
        )
        a.subscribe(ComboSide(inner: engine, store: aStore))
        b.subscribe(ComboSide(inner: engine, store: bStore))
        c.subscribe(ComboSide(inner: engine, store: cStore))
        d.subscribe(ComboSide(inner: engine, store: dStore))
    }
}
