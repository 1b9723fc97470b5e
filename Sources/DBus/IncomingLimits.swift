// How far the loop reads ahead of handling, and how it shares its turns between peers.

/// The bounds and budgets of the loop's incoming backlog (`SenderQueues`), written once.
///
/// The loop reads everything the bus has sent (so a quiet peer's call is seen behind a storm
/// and can be served before it) but only up to a bound, then stops reading: the bus keeps the
/// rest, and no peer can grow this process's memory by sending faster than it is answered.
enum IncomingLimits {
    /// Messages held unhandled before reading pauses (a storm of 10,000 calls fits). About
    /// 0.5–1 KB each for ordinary calls.
    /// Reading resumes once the backlog is down to half of it.
    static let messages = 16_384
    /// Bytes of received messages alive at once (read and not yet handled) before libdbus
    /// stops reading (`dbus_connection_set_max_received_size`; libdbus's own default is 63 MB).
    /// Bounds memory when messages are large.
    ///
    /// A call being answered does not count: once its body is decoded the message is released,
    /// and its `Responder` keeps only a `ReplyAddress`. Were it kept, a handler waiting on another
    /// peer (the bus daemon, a service) or on a user while it held one call over this bound
    /// (the session bus passes far larger ones) would stop reading: the awaited reply would never
    /// be read, and every peer would wait until that wait timed out. What a waiting handler keeps
    /// of a call's arguments is its own memory to bound.
    static let bytes = 16 << 20
    /// Bulk (non-read-only) calls one peer has handled per visit before the next peer's turn.
    static let perPeerBudget = 4
    /// Prompt messages (read-only calls, replies, signals) handled in a row while bulk calls
    /// wait: read-only callers go first, but a flood of reads cannot starve writers.
    static let promptRun = 8
    /// Bytes of output libdbus may hold unsent (the bus reads a few KB from us per pass)
    /// before bulk calls wait unhandled (`ConnectionLoop+Output.swift`), so that a quiet peer's
    /// answer is not queued behind a flood's replies.
    static let outgoingBytes = 4 << 10
    /// The kernel's send buffer of our socket (SO_SNDBUF; Linux doubles it for its own
    /// accounting): the default, about 200 KB, would hold hundreds of a flood's replies in
    /// one line ahead of anything sent after them.
    static let socketSendBuffer: Int32 = 16 << 10
    /// Messages handled per loop turn before timers and other work on the loop get their go.
    static let perTurn = 64
}

extension Connection {
    /// Calls `handler` on the loop when reading from the bus pauses because the backlog of
    /// unhandled messages reached its bound, and when it resumes: for a debug log.
    public func onBacklogChange(_ handler: @escaping (Backlog) -> Void) {
        let box = UncheckedBox(handler)
        perform { self.backlogHandlers.append(box.value) }
    }
}
