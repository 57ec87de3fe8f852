/// One Redis reply, copied out of hiredis's reply object.
public enum RedisReply: Sendable, Equatable {
    /// A bulk string: binary-safe bytes.
    case bulk([UInt8])
    /// A status reply such as `OK`.
    case status(String)
    /// An integer reply.
    case integer(Int)
    /// A nil bulk or nil multi-bulk reply (e.g. `GET` of a missing key, `SET NX` that lost).
    case null
    /// A multi-bulk reply.
    case array([RedisReply])
    /// An error reply (`-ERR ...`).
    case error(String)
}
