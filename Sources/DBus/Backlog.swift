// What the loop holds read and unhandled, as reported when reading pauses or resumes.

/// The state of a connection's incoming backlog at a change of back-pressure.
public struct Backlog: Sendable, Equatable {
    /// Whether reading from the bus is now paused (the backlog reached its bound).
    public let paused: Bool
    /// Messages read and not yet handled, now.
    public let buffered: Int
    /// The most ever held at once on this connection: never above `bound` by more than what
    /// one read brings in.
    public let highWater: Int
    /// The bound at which reading pauses.
    public let bound: Int

    /// The bound every connection uses (`IncomingLimits.messages`).
    public static var messageBound: Int { IncomingLimits.messages }
}
