// SignalRelay: the process's one signal handler, which writes each signal into a pipe read on a queue (the self-pipe).
import DescriptorEvents
import Dispatch
import Glibc
import Locking

/// The write end of the relay's pipe, for the C handler: a fixed address read without a lock,
/// set once before any handler is installed.
nonisolated(unsafe) private let relayWriteEnd: UnsafeMutablePointer<Int32> = {
    let pointer = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    pointer.initialize(to: -1)
    return pointer
}()

/// The handler every watched signal gets: one byte (the signal's number) into the pipe, errno
/// kept. Only async-signal-safe calls.
private func relaySignal(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(relayWriteEnd.pointee, &byte, 1)
    errno = saved
}

/// Hands signals to the `SignalWatcher`s that watch them, on their queues.
///
/// A real handler (`sigaction`), installed before `add` returns, so that no signal that comes
/// after is lost whichever thread it hits. libdispatch's signal sources, used before, install
/// theirs from another thread some time later, and only the first time a signal is watched in
/// the process: a SIGINT sent in between was discarded as ignored, and one sent to a `share`
/// that watched a second time was never seen (a test's Ctrl-C timed out under load).
final class SignalRelay: Sendable {
    static let shared = SignalRelay()

    /// A watcher's handler and the queue it runs on.
    struct Watch {
        let queue: DispatchQueue
        let handler: @Sendable (Int32) -> Void
    }

    /// What a signal gets back once no watcher is left for it.
    enum Afterwards {
        /// The action it had before the first watcher came (a caller's own handler, say the
        /// terminal's raw mode's, or the default): for a command's temporary watch.
        case previous
        /// Ignored: for a daemon that must not die of a late signal while it finishes.
        case ignored
    }

    /// The watches per signal number, keyed by their watcher, and the action each watched
    /// signal had before its first watcher.
    private let watches = Locked<
        (bySignal: [Int32: [ObjectIdentifier: Watch]], previous: [Int32: sigaction])
    >(
        ([:], [:]))
    private let source: DescriptorSource

    private init() {
        let ends: (read: Int32, write: Int32)
        do {
            ends = try SystemCalls.makePipe()
        } catch {
            preconditionFailure("the signal relay's pipe: \(error)")
        }
        // A full pipe drops a byte, never blocks the handler: one byte per signal is enough.
        SystemCalls.setNonBlocking(ends.read)
        SystemCalls.setNonBlocking(ends.write)
        relayWriteEnd.pointee = ends.write
        let readEnd = ends.read
        // Never cancelled: the relay lives as long as the process.
        source = DescriptorSource(
            fd: readEnd, condition: .readable, queue: DispatchQueue(label: "SystemSupport.SignalRelay"))
        source.start { [unowned self] in deliver(readingFrom: readEnd) }
    }

    /// Starts handing `signals` to `watch`; installs the relay's handler for each before it
    /// returns, keeping the action it replaces.
    func add(_ watcher: ObjectIdentifier, _ watch: Watch, for signals: [Int32]) {
        watches.withLock { watches in
            for number in signals {
                if watches.bySignal[number] == nil {
                    var action = sigaction()
                    action.__sigaction_handler.sa_handler = relaySignal
                    action.sa_flags = SA_RESTART
                    sigemptyset(&action.sa_mask)
                    var previous = sigaction()
                    _ = sigaction(number, &action, &previous)
                    watches.previous[number] = previous
                }
                watches.bySignal[number, default: [:]][watcher] = watch
            }
        }
    }

    /// Stops handing `signals` to `watcher`; a signal nobody watches any more gets what
    /// `afterwards` says. Does nothing for a watcher already removed.
    func remove(_ watcher: ObjectIdentifier, for signals: [Int32], afterwards: Afterwards) {
        watches.withLock { watches in
            for number in signals {
                guard watches.bySignal[number]?.removeValue(forKey: watcher) != nil else { continue }
                guard watches.bySignal[number]?.isEmpty ?? true else { continue }
                watches.bySignal[number] = nil
                let previous = watches.previous.removeValue(forKey: number)
                switch afterwards {
                case .previous:
                    if var previous {
                        _ = sigaction(number, &previous, nil)
                    } else {
                        _ = signal(number, SIG_DFL)
                    }
                case .ignored:
                    _ = signal(number, SIG_IGN)
                }
            }
        }
    }

    /// Reads what the handler wrote; each signal found is handed once to each of its watchers.
    private func deliver(readingFrom fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64)
        var numbers: [Int32] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                for byte in buffer[0..<count] where !numbers.contains(Int32(byte)) {
                    numbers.append(Int32(byte))
                }
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        for number in numbers {
            let targets = watches.withLock { Array(($0.bySignal[number] ?? [:]).values) }
            for watch in targets { watch.queue.async { watch.handler(number) } }
        }
    }
}
