import CometRedis

// The service and the Redis store share one result type (it is what Redis holds).
@_exported import struct CometRedis.StoredResult

/// The Redis store is a shared result store: every instance using the same Redis serves what
/// any of them made, and makes each result once among them.
extension RedisResultStore: SharedResultStoring {}
