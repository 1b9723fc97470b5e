// SignalWatcher: a real signal delivered on the queue, and SIGPIPE ignored.
import Foundation
import Glibc
import Locking
import TestSupport
import Testing

@testable import SystemSupport

@Suite struct SignalWatcherTests {
    @Test func aSignalIsDeliveredOnTheQueue() async throws {
        let queue = DispatchQueue(label: "SignalWatcherTests")
        let received = Inbox<Int32>()
        // SIGUSR2 rather than SIGTERM: a broken watcher must not end the test process.
        let watcher = SignalWatcher(signals: [SIGUSR2], queue: queue) { signal in
            dispatchPrecondition(condition: .onQueue(queue))
            received.put(signal)
        }
        defer { queue.sync { watcher.cancel() } }
        _ = kill(getpid(), SIGUSR2)
        #expect(try await received.next("SIGUSR2") == SIGUSR2)
    }

    /// Regression: the watcher set the signal to ignored at once and libdispatch installed its
    /// handler later from another thread, and only the first time the process watched that
    /// signal: a signal sent right after `init` was discarded, and every one sent to a second
    /// watcher (share's Ctrl-C, once it had waited before) was lost (a test's Ctrl-C timed out).
    @Test("A signal sent as soon as the watcher exists arrives, for every watcher in turn")
    func aSignalRightAfterInitArrivesEveryTime() async throws {
        let queue = DispatchQueue(label: "SignalWatcherTests.turns")
        for turn in 0..<20 {
            let received = Inbox<Int32>()
            let watcher = SignalWatcher(signals: [SIGUSR1], queue: queue, scope: .temporary) {
                received.put($0)
            }
            _ = kill(getpid(), SIGUSR1)
            #expect(try await received.next("SIGUSR1 in turn \(turn)") == SIGUSR1)
            queue.sync { watcher.cancel() }
        }
        // The temporary scope gave SIGUSR1 its default action back.
        var action = sigaction()
        _ = sigaction(SIGUSR1, nil, &action)
        let handler = action.__sigaction_handler.sa_handler.map { unsafeBitCast($0, to: Int.self) } ?? 0
        #expect(handler == 0, "SIG_DFL is the null handler")
    }

    /// Regression: a temporary watch ended with the default action, whatever the signal had
    /// before; inside the terminal's raw mode that dropped its handler, which gives the terminal
    /// back before the process dies.
    @Test func aTemporaryWatchGivesBackTheActionItReplaced() {
        // SIGURG: ignored by default, used by nothing else in the test process.
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        var original = sigaction()
        _ = sigaction(SIGURG, &ignore, &original)
        defer { _ = sigaction(SIGURG, &original, nil) }
        let queue = DispatchQueue(label: "SignalWatcherTests.previous")
        let watcher = SignalWatcher(signals: [SIGURG], queue: queue, scope: .temporary) { _ in }
        queue.sync { watcher.cancel() }
        var now = sigaction()
        _ = sigaction(SIGURG, nil, &now)
        let handler = now.__sigaction_handler.sa_handler.map { unsafeBitCast($0, to: Int.self) } ?? 0
        #expect(handler == 1, "SIG_IGN, as before the watch")
    }

    @Test func nothingIsDeliveredAfterCancel() async throws {
        let queue = DispatchQueue(label: "SignalWatcherTests.cancel")
        let late = Locked(0)
        let kept = Inbox<Int32>()
        // A second watcher of the same signal keeps it handled after the first is cancelled.
        let keeper = SignalWatcher(signals: [SIGUSR2], queue: queue) { kept.put($0) }
        defer { queue.sync { keeper.cancel() } }
        let watcher = SignalWatcher(signals: [SIGUSR2], queue: queue) { _ in late.withLock { $0 += 1 } }
        queue.sync { watcher.cancel() }
        _ = kill(getpid(), SIGUSR2)
        #expect(try await kept.next("SIGUSR2 at the keeper") == SIGUSR2)
        queue.sync {}
        #expect(late.value == 0)
    }

    @Test func sigpipeIsIgnored() {
        SignalWatcher.ignoreSIGPIPE()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        close(fds[0])
        var byte: UInt8 = 1
        // With SIGPIPE at its default this write would kill the test process.
        #expect(write(fds[1], &byte, 1) == -1 && errno == EPIPE)
        close(fds[1])
    }
}
