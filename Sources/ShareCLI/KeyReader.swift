// Reads terminal events on a thread of its own and hands them to async code as a stream.
import Foundation
import TerminalUI

/// Delivers `terminal.readEvent()` results as an `AsyncStream`.
///
/// `readEvent` blocks; running it on a dedicated thread keeps Swift concurrency's few
/// threads free for the page loads and broker calls the browse loop awaits. Only that thread
/// reads the terminal; the owner keeps writing frames (write(2) is safe from any thread).
/// `@unchecked Sendable`: the terminal is touched by the reader thread alone until `stop()`,
/// which returns only once that thread has left it.
final class KeyReader: @unchecked Sendable {
    private let terminal: Terminal
    private let lock = NSLock()
    private var stopped = false
    /// Signalled when the thread has read its last event.
    private let finished = DispatchSemaphore(value: 0)
    let events: AsyncStream<TerminalEvent>
    private let continuation: AsyncStream<TerminalEvent>.Continuation

    init(terminal: Terminal) {
        self.terminal = terminal
        (events, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
        let thread = Thread { [self] in
            while !isStopped {
                // A short poll, so that `stop()` is noticed without another key press.
                let event = self.terminal.readEvent(timeout: 100)
                if event == .timeout { continue }
                continuation.yield(event)
                if event == .endOfInput { break }
            }
            continuation.finish()
            self.finished.signal()
        }
        thread.start()
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// Ends the stream and waits for the thread to exit (one poll interval at most). Waiting
    /// matters: the owner restores the terminal next, and a thread still inside `readEvent`
    /// raced with that on the terminal's key queue (ThreadSanitizer, `make sanitize`).
    /// Idempotent.
    func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        if first { finished.wait() }
    }
}
