/// An engine that ends or opens its stream when a second publisher, the trigger, produces a
/// value (``DropUntilOutputEngine``, ``PrefixUntilOutputEngine``): what ``TriggerSide``
/// forwards the trigger's events to.
protocol TriggeredEngine: AnyObject, CustomCombineIdentifierConvertible {
    associatedtype TriggerFailure: Error

    /// Keeps the trigger's subscription while the stream is live and has none; `false` and
    /// the caller cancels it otherwise.
    func adoptTrigger(_ subscription: Subscription) -> Bool
    func triggerFired()
    func triggerCompleted(_ completion: Subscribers.Completion<TriggerFailure>)
}

/// The state of a ``TriggeredEngine`` as far as its trigger is concerned.
protocol TriggerHolding {
    var trigger: Subscription? { get set }
    var isEnded: Bool { get }
}

extension TriggerHolding {
    /// ``TriggeredEngine/adoptTrigger(_:)``, under the engine's lock.
    mutating func adoptTrigger(_ subscription: Subscription) -> Bool {
        guard !isEnded, trigger == nil else { return false }
        trigger = subscription
        return true
    }
}

/// The trigger's subscriber: asks the trigger for one value and forwards its events to the
/// engine, whose identifier it shows, as Combine's do. It keeps the engine weakly: once the
/// trigger fired, the trigger publisher may keep its subscriber for as long as it lives.
struct TriggerSide<Engine: TriggeredEngine, Other>: Subscriber {
    typealias Input = Other
    typealias Failure = Engine.TriggerFailure
    weak var engine: Engine?
    let combineIdentifier: CombineIdentifier

    init(engine: Engine) {
        self.engine = engine
        self.combineIdentifier = engine.combineIdentifier
    }

    func receive(subscription: Subscription) {
        if let engine, engine.adoptTrigger(subscription) {
            subscription.request(.max(1))
        } else {
            subscription.cancel()
        }
    }

    func receive(_ input: Other) -> Subscribers.Demand {
        engine?.triggerFired()
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        engine?.triggerCompleted(completion)
    }
}

extension TriggerSide: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    CombineReflectable
where Engine: NamedTriggeredEngine {
    var description: String { Engine.triggerName }
}

/// A ``TriggeredEngine`` whose trigger's subscriber shows Combine's name for it (where
/// Combine's has none, the subscriber has no description or mirror of its own).
protocol NamedTriggeredEngine: TriggeredEngine {
    static var triggerName: String { get }
}
