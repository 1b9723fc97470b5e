// BrowseEvents: the key reader's events and the ends of page loads, in one stream for the browse loop.
import TerminalUI

/// What the browse loop waits on: terminal events, and the end of a load.
///
/// The key reader's events are forwarded into one stream together with `loaded`, so that a
/// loop waiting for a load to end reads keys meanwhile (q, Esc, Ctrl-C) instead of being deaf
/// until the page arrives.
final class BrowseEvents: Sendable {
    enum Event: Sendable {
        case terminal(TerminalEvent)
        case loaded
    }

    let stream: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let forwarding: Task<Void, Never>

    init(keys: KeyReader) {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
        self.stream = stream
        self.continuation = continuation
        forwarding = Task {
            for await event in keys.events { continuation.yield(.terminal(event)) }
            continuation.finish()
        }
    }

    /// Reports that a load ended.
    func loaded() { continuation.yield(.loaded) }

    /// Stops forwarding and ends the stream.
    func stop() {
        forwarding.cancel()
        continuation.finish()
    }
}
