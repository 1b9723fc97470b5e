// The usage ranking's file on disk: load once, debounced atomic writes, flush on shutdown.
import Dispatch
import Glibc
import SystemSupport

/// Reads and writes the usage file as opaque `Data` (the domain encodes and decodes it).
///
/// Writes are debounced: `schedule` keeps only the newest data and writes it `delay` seconds
/// after the first unsaved change, so a burst of completed jobs costs one write. `flush`
/// writes at once (on SIGTERM). Confined to `queue`: call `schedule` and `flush` there;
/// the timer and `onWriteError` run there too.
public final class UsageStoreFile: @unchecked Sendable {
    /// Largest file `load` accepts; a larger one is treated as corrupt.
    public static let sizeLimit = 16 << 20

    /// The file, e.g. `$XDG_STATE_HOME/activity-broker/usage.json`.
    public let path: String
    private let queue: DispatchQueue
    private let delay: DispatchTimeInterval
    private let onWriteError: @Sendable (SystemError) -> Void
    private var pending: [UInt8]?
    private var timer: DispatchSourceTimer?
    /// Writes done so far; lets tests count writes without timing.
    private(set) var writeCount = 0

    /// - Parameters:
    ///   - delay: how long changes are collected before a write.
    ///   - onWriteError: called on the queue when a debounced write fails (the data stays
    ///     pending and goes out with the next `schedule` or `flush`).
    public init(
        path: String, queue: DispatchQueue, delay: Double = 1,
        onWriteError: @escaping @Sendable (SystemError) -> Void
    ) {
        self.path = path
        self.queue = queue
        self.delay = .nanoseconds(Int(delay * 1e9))
        self.onWriteError = onWriteError
    }

    deinit { timer?.cancel() }

    /// The file's bytes, or nil when it does not exist (a first start). Blocking; any thread.
    /// - Throws: `SystemError` when it exists but cannot be read, is not a regular file, or is
    ///   larger than `sizeLimit` (`EFBIG`): the caller logs it once and starts empty.
    public func load() throws(SystemError) -> [UInt8]? {
        AtomicFile.removeLeftovers(of: path)
        do {
            return try SystemCalls.readFile(path, limit: Self.sizeLimit)
        } catch where error.code == ENOENT {
            return nil
        }
    }

    /// Whether data is waiting to be written.
    public var hasPendingWrite: Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        return pending != nil
    }

    /// Replaces the data to be written; it is written within `delay` seconds.
    public func schedule(_ data: [UInt8]) {
        dispatchPrecondition(condition: .onQueue(queue))
        pending = data
        guard timer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + delay)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            do throws(SystemError) {
                try self.flush()
            } catch {
                self.onWriteError(error)
            }
        }
        self.timer = timer
        timer.resume()
    }

    /// Writes pending data now, atomically; nothing when none is pending.
    /// - Throws: `SystemError` from `AtomicFile.write`; the data stays pending.
    public func flush() throws(SystemError) {
        dispatchPrecondition(condition: .onQueue(queue))
        timer?.cancel()
        timer = nil
        guard let data = pending else { return }
        try AtomicFile.write(data, to: path)
        writeCount += 1
        pending = nil
    }
}
