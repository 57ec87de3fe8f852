/// One step of the thumbnail pipeline (``ThumbnailPlan/steps``, which lists them in the order
/// they run): reads its URL options and adds to the plan what they ask for, operations on the
/// pixels or settings of how the source is read and the result written.
///
/// A step reads only ``ThumbnailOptions`` values and the plan built so far; the options table
/// (``ThumbnailOptions/table``) only reads and spells the values. Thread-safe (a value).
protocol ThumbnailStep: Sendable {
    /// The options this step reads, as the table declares them.
    var reads: [ThumbnailOption] { get }
    /// Adds what `options` ask of this step to `plan`.
    func add(_ options: ThumbnailOptions, to plan: inout ThumbnailPlan)
}
