// SignalWatcher: a real signal delivered on the queue, and SIGPIPE ignored.
import Foundation
import Glibc
import TestSupport
import Testing

@testable import SystemSupport

@Suite struct SignalWatcherTests {
    @Test func aSignalIsDeliveredOnTheQueue() throws {
        let queue = DispatchQueue(label: "SignalWatcherTests")
        let received = Awaited<Int32>()
        // SIGUSR2 rather than SIGTERM: a broken watcher must not end the test process.
        let watcher = SignalWatcher(signals: [SIGUSR2], queue: queue) { signal in
            dispatchPrecondition(condition: .onQueue(queue))
            received.set(signal)
        }
        defer { queue.sync { watcher.cancel() } }
        // The source registers asynchronously, and until it has, other threads of the test
        // runner (which do not block SIGUSR2) discard it as ignored: send until one arrives.
        #expect(eventually {
            _ = kill(getpid(), SIGUSR2)
            return !received.all.isEmpty
        })
        #expect(received.all.allSatisfy { $0 == SIGUSR2 })
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
