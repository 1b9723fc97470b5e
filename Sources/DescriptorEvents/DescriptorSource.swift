// DescriptorSource: a descriptor's readiness reported on a caller's queue, from one epoll thread of our own.
import CEpoll
import Dispatch
import Glibc
import Locking

/// Runs a handler on a caller's serial queue whenever a descriptor can be read (or written):
/// what `DispatchSource.makeReadSource` and `makeWriteSource` do, without libdispatch's epoll
/// bookkeeping.
///
/// Why not libdispatch: on Linux its manager thread reads a freed `dispatch_muxnote` in
/// `_dispatch_event_loop_drain` and the process dies (SIGSEGV) when a descriptor's hang-up is
/// handled while other descriptors are being registered and removed from other threads
/// (swift-corelibs-libdispatch issues 833 and 949, open). A child's output pipe hangs up every
/// time the child exits, and a bus socket when the bus goes; a test process that captured
/// children's output while bus connections opened and closed died in half its runs.
/// Here an event carries a number looked up in a table, never a pointer: an event for a source
/// already cancelled finds nothing and is dropped, and a number is never reused.
///
/// Level-triggered and one-shot: after the handler ran the descriptor is watched again, so a
/// handler that leaves data unread is called again, and a hang-up or error (which epoll always
/// reports) calls the handler, which sees it on its next read or write. The handler never runs
/// twice at once, and never after `cancel` returned on the queue.
///
/// The caller owns the descriptor and closes it in `onCancel`, never before: the registration is
/// removed in `cancel`, while the number still names the same file. A source that is started
/// must be cancelled (the table keeps it until then).
public final class DescriptorSource: @unchecked Sendable {
    // Sendable: `handler` and `state` are changed only under `lock`; the rest never changes.

    /// What the handler waits for.
    public enum Condition: Sendable {
        case readable, writable

        var events: UInt32 {
            switch self {
            case .readable: return EPOLLIN.rawValue
            case .writable: return EPOLLOUT.rawValue
            }
        }
    }

    private enum State { case new, watching, cancelled }

    /// The descriptor watched (for the handler's reads or writes).
    public let fd: Int32
    private let condition: Condition
    private let queue: DispatchQueue
    private let onCancel: @Sendable () -> Void
    private let token: UInt64
    private let lock = Lock()
    private var state = State.new
    private var handler: (() -> Void)?

    /// A source for `fd` whose handler will run on `queue`; nothing is watched until `start`.
    /// `onCancel` runs on `queue` once, after `cancel`, when no handler can run any more.
    public init(
        fd: Int32, condition: Condition, queue: DispatchQueue, onCancel: @escaping @Sendable () -> Void = {}
    ) {
        self.fd = fd
        self.condition = condition
        self.queue = queue
        self.onCancel = onCancel
        token = EpollThread.shared.nextToken()
    }

    /// Starts watching; `handler` runs on the queue each time the condition holds. Once only.
    /// Returns false (and watches nothing; `cancel` still runs `onCancel`) when epoll refuses the
    /// descriptor, e.g. a regular file, which is always ready: the caller should then just do
    /// its reads or writes.
    @discardableResult
    public func start(_ handler: @escaping () -> Void) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        precondition(state == .new, "a DescriptorSource is started once")
        guard EpollThread.shared.add(self, fd: fd, events: condition.events, token: token) else {
            return false
        }
        self.handler = handler
        state = .watching
        return true
    }

    /// Stops watching: no handler runs after this returns when called on the queue, nor after
    /// any one already running when called elsewhere; then `onCancel` runs on the queue.
    /// Any thread; a second call does nothing.
    public func cancel() {
        lock.lock()
        let wasWatching = state == .watching
        let first = state != .cancelled
        state = .cancelled
        handler = nil
        if wasWatching { EpollThread.shared.remove(fd: fd, token: token) }
        lock.unlock()
        if first { queue.async(execute: onCancel) }
    }

    /// The epoll thread saw the condition (or a hang-up): run the handler on the queue, then
    /// watch again.
    fileprivate func ready() {
        queue.async { [self] in
            lock.lock()
            let handler = state == .watching ? self.handler : nil
            lock.unlock()
            guard let handler else { return }
            handler()
            lock.lock()
            if state == .watching { EpollThread.shared.rearm(fd: fd, events: condition.events, token: token) }
            lock.unlock()
        }
    }
}

/// The process's one epoll instance and the thread that waits on it; a table maps each event's
/// number to its source.
private final class EpollThread: @unchecked Sendable {
    // Sendable: `epfd` never changes after init; `sources` and `lastToken` live behind `table`.
    static let shared = EpollThread()

    private let epfd: Int32
    private let table = Locked((sources: [UInt64: DescriptorSource](), lastToken: UInt64(0)))

    private init() {
        epfd = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(epfd >= 0, "epoll_create1 failed: errno \(errno)")
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<EpollThread>.fromOpaque(raw!).takeRetainedValue().run()
            }, context)
        precondition(status == 0, "pthread_create failed: \(status)")
        pthread_detach(thread)
    }

    func nextToken() -> UInt64 {
        table.withLock { table in
            table.lastToken += 1
            return table.lastToken
        }
    }

    /// Registers `source` (one-shot); false when epoll refuses `fd`. Under the source's lock.
    func add(_ source: DescriptorSource, fd: Int32, events: UInt32, token: UInt64) -> Bool {
        table.withLock { $0.sources[token] = source }
        var event = epoll_event(events: events | EPOLLONESHOT.rawValue, data: epoll_data_t(u64: token))
        guard epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event) == 0 else {
            table.withLock { $0.sources[token] = nil }
            return false
        }
        return true
    }

    /// Watches `fd` again after its one shot was delivered. Under the source's lock.
    func rearm(fd: Int32, events: UInt32, token: UInt64) {
        var event = epoll_event(events: events | EPOLLONESHOT.rawValue, data: epoll_data_t(u64: token))
        _ = epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &event)
    }

    /// Removes the registration while `fd` is still open; an event already taken from epoll
    /// for `token` then finds no source. Under the source's lock.
    func remove(fd: Int32, token: UInt64) {
        _ = epoll_ctl(epfd, EPOLL_CTL_DEL, fd, nil)
        table.withLock { $0.sources[token] = nil }
    }

    private func run() -> UnsafeMutableRawPointer? {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while true {
            let count = events.withUnsafeMutableBufferPointer {
                epoll_wait(epfd, $0.baseAddress, Int32($0.count), -1)
            }
            guard count > 0 else { continue }  // EINTR
            let ready = table.withLock { table in
                events[0..<Int(count)].compactMap { table.sources[$0.data.u64] }
            }
            for source in ready { source.ready() }
        }
    }
}
