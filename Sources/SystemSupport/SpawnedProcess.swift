// A running child process: exit watched through a pidfd, stdin fed and output read without blocking.
import DescriptorEvents
import Dispatch
import Glibc
import Locking

/// One child started by `ChildProcessLauncher`.
///
/// Confined to the launcher's queue: every source and timer of it runs there (descriptors are
/// watched by `DescriptorSource`, not libdispatch: a pipe's hang-up crashed libdispatch), and its state
/// is only touched there (hence `@unchecked Sendable`; `terminate` hops onto the queue), but
/// for `exit`, which is written only holding `LiveChildren`'s lock, so that `endAll` may read
/// it from another thread holding that lock. The
/// completion runs exactly once. The object keeps itself alive until then (and, once
/// `terminate` was asked, until its SIGKILL escalation is done), so a caller need not hold it
/// unless it wants to `terminate` it.
public final class SpawnedProcess: @unchecked Sendable {
    /// The child's process id, which is also its process group id.
    public let pid: pid_t
    private let queue: DispatchQueue
    private let capture: Capture
    /// What `terminate` and `endAll` signal: the whole group, or the child alone.
    private let target: TerminationTarget
    /// Whether `endAll` owes this child an end (false for a detached one).
    private let owned: Bool
    /// Set once `terminate` was asked: from then on the SIGKILL escalation stays armed
    /// whatever the leader does, since group members that ignore SIGTERM outlive a leader
    /// that dies of it.
    private var terminating = false
    private var onExit: (@Sendable (ProcessTermination) -> Void)?

    private var exitSource: DescriptorSource?
    private var inputSource: DescriptorSource?
    private var inputBytes: [UInt8] = []
    private var inputOffset = 0
    private var outputStream: CapturedStream?
    private var errorStream: CapturedStream?
    private var killTimer: DispatchSourceTimer?
    private var exit: ProcessExit?
    /// Set between `start` and completion, so the process outlives its caller's reference.
    private var retainedSelf: SpawnedProcess?

    init(
        pid: pid_t, queue: DispatchQueue, input: (fd: Int32, text: String)?,
        output: Int32?, error: Int32?, capture: Capture, target: TerminationTarget, owned: Bool,
        onExit: @escaping @Sendable (ProcessTermination) -> Void
    ) {
        self.pid = pid
        self.queue = queue
        self.capture = capture
        self.target = target
        self.owned = owned
        self.onExit = onExit
        if let input {
            inputBytes = Array(input.text.utf8)
            SystemCalls.setNonBlocking(input.fd)
            inputSource = DescriptorSource(fd: input.fd, condition: .writable, queue: queue) {
                SystemCalls.closeQuietly(input.fd)
            }
        }
        if let output { outputStream = CapturedStream(fd: output, capture: capture, queue: queue) }
        if let error { errorStream = CapturedStream(fd: error, capture: capture, queue: queue) }
    }

    /// How output is captured (`SpawnOptions.captureLimit`, `captureWindow`, `reportAtExit`).
    struct Capture {
        var limit: Int
        var window: CaptureWindow
        var reportAtExit: Bool
    }

    /// Arms the sources. Called once by the launcher before it returns the process.
    func start(useSignalReaper: Bool) {
        retainedSelf = self
        if owned { LiveChildren.withLock { $0[ObjectIdentifier(self)] = self } }
        if let inputSource {
            inputSource.start { [unowned self] in self.writeInput() }
        }
        for stream in [outputStream, errorStream].compactMap({ $0 }) {
            stream.start { [unowned self] in self.finishIfDone() }
        }
        if !useSignalReaper, let pidfd = SystemCalls.pidfdOpen(pid) {
            let source = DescriptorSource(fd: pidfd, condition: .readable, queue: queue) {
                SystemCalls.closeQuietly(pidfd)
            }
            exitSource = source
            source.start { [unowned self] in self.reap() }
        } else {
            ChildReaper.shared.watch(pid) { [queue] status in
                queue.async { [self] in self.exited(status) }
            }
        }
    }

    /// Ends the child: SIGTERM to its process group now (to the child alone when its
    /// `SpawnOptions.terminationTarget` is `.process`), SIGKILL after `grace` seconds (0 kills
    /// at once). For a group the SIGKILL comes even if the leader ended meanwhile: a member
    /// that ignores SIGTERM must not outlive the job. Does nothing once the completion ran,
    /// or when asked again. On the queue it signals at once (a caller about to exit must not
    /// race a queued signal); from any other thread it acts asynchronously on the queue.
    public func terminate(grace: Double = 5) {
        if DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(queue) {
            beginTermination(grace: grace)
        } else {
            queue.async { [self] in beginTermination(grace: grace) }
        }
    }

    /// Marks `queue` so that `terminate` can tell it is running on it (set by the launcher).
    static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    private func beginTermination(grace: Double) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard onExit != nil, !terminating else { return }
        terminating = true
        if grace <= 0 {
            deliver(SIGKILL)
            return
        }
        deliver(SIGTERM)
        // Owed an end again: a leader that exited before this may have left its group running.
        if owned && target == .processGroup { LiveChildren.withLock { $0[ObjectIdentifier(self)] = self } }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + grace)
        timer.setEventHandler { [unowned self] in self.escalate() }
        killTimer = timer
        timer.resume()
    }

    /// The grace after SIGTERM is over: SIGKILL to what is left, then nothing is owed.
    private func escalate() {
        dispatchPrecondition(condition: .onQueue(queue))
        killTimer?.cancel()
        killTimer = nil
        deliver(SIGKILL)
        LiveChildren.withLock { children in
            if exit != nil { children[ObjectIdentifier(self)] = nil }
        }
        if onExit == nil { retainedSelf = nil }
    }

    /// Sends `signal` to the child's process group (descendants included), or to the child
    /// alone for `.process`. A reaped child's pid may be reused, so it alone is never signalled
    /// once reaped.
    private func deliver(_ signal: Int32) {
        dispatchPrecondition(condition: .onQueue(queue))
        LiveChildren.withLock { _ in send(signal) }
    }

    /// The signal itself; the caller holds `LiveChildren`'s lock, which `reap` holds across
    /// `waitpid`, so no pid is signalled after it was reaped and before `exit` says so.
    fileprivate func send(_ signal: Int32) {
        switch target {
        case .processGroup:
            // The group outlives the leader while any member lives, so its id cannot be reused
            // for another group then; once every member is gone this is ESRCH. (After that,
            // until the escalation fires, a new group could in principle take the id: pids wrap
            // far slower than the few seconds of grace.)
            if kill(-pid, signal) != 0 && exit == nil {
                _ = kill(pid, signal)
            }
        case .process:
            if exit == nil { _ = kill(pid, signal) }
        }
    }

    /// Whether anything `send` would reach is still there (a zombie counts until reaped).
    fileprivate var isAlive: Bool {
        switch target {
        case .processGroup: return kill(-pid, 0) == 0 || (exit == nil && kill(pid, 0) == 0)
        case .process: return exit == nil && kill(pid, 0) == 0
        }
    }

    /// Ends every child still owed an end, for a daemon about to exit: SIGTERM to each
    /// (its group or itself, as `terminate` would), then polls until all are gone or `grace`
    /// seconds passed, and SIGKILLs what is left. Blocks the calling thread for at most
    /// `grace`; call it off the launcher's queue, which reaps the children meanwhile (on the
    /// queue a dead leader stays a zombie, which counts as alive until the grace is over).
    ///
    /// Owed an end: every child started by `ChildProcessLauncher.spawn` that has not exited
    /// (or whose `terminate` escalation is still pending); detached ones are not.
    public static func endAll(grace: Double = 2) {
        let deadline = DispatchTime.now() + grace
        LiveChildren.withLock { children in
            for child in children.values { child.send(SIGTERM) }
        }
        while DispatchTime.now() < deadline {
            if LiveChildren.withLock({ $0.values.allSatisfy { !$0.isAlive } }) { return }
            usleep(10_000)
        }
        LiveChildren.withLock { children in
            for child in children.values { child.send(SIGKILL) }
        }
    }

    private func reap() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard exit == nil else { return }
        // Under the lock, reaping and recording it are one step for `endAll`'s signals.
        let reaped = LiveChildren.withLock { children in
            // nil: a spurious wake-up, still running.
            ProcessExit.poll(pid).map { record($0, in: &children) } ?? false
        }
        if reaped { afterExit() }
    }

    /// Sets `exit`; the child is no longer owed an end unless its escalation is pending (its
    /// group may live on). Called holding `LiveChildren`'s lock; false when already recorded.
    private func record(_ status: ProcessExit, in children: inout [ObjectIdentifier: SpawnedProcess]) -> Bool
    {
        guard exit == nil else { return false }
        exit = status
        if killTimer == nil { children[ObjectIdentifier(self)] = nil }
        return true
    }

    /// The signal reaper's report (reaped already, elsewhere).
    private func exited(_ status: ProcessExit) {
        dispatchPrecondition(condition: .onQueue(queue))
        if LiveChildren.withLock({ record(status, in: &$0) }) { afterExit() }
    }

    private func afterExit() {
        dispatchPrecondition(condition: .onQueue(queue))
        if let exitSource {
            exitSource.cancel()
            self.exitSource = nil
        }
        // Nobody is left to read the rest of the input.
        stopInput()
        if capture.reportAtExit {
            // What the child wrote before it exited is in the pipes now.
            outputStream?.drainAvailable()
            errorStream?.drainAvailable()
        }
        finishIfDone()
    }

    private func writeInput() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let inputSource else { return }
        let fd = inputSource.fd
        while inputOffset < inputBytes.count {
            let written = inputBytes.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress! + inputOffset, buffer.count - inputOffset)
            }
            if written > 0 {
                inputOffset += written
            } else if written == -1 && errno == EINTR {
                continue
            } else if written == -1 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return  // the source fires again when the pipe has room
            } else {
                break  // EPIPE: the child closed its stdin; what it read is what it wanted
            }
        }
        stopInput()
    }

    private func stopInput() {
        guard let inputSource else { return }
        self.inputSource = nil
        inputBytes = []
        // Cancelling closes the write end, which is the child's end of file.
        inputSource.cancel()
    }

    private func finishIfDone() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let exit, let onExit else { return }
        if !capture.reportAtExit && (outputStream?.isFinished == false || errorStream?.isFinished == false) {
            return
        }
        self.onExit = nil
        let termination = ProcessTermination(
            exit: exit, standardOutput: outputStream?.data, standardError: errorStream?.data)
        // Descendants may still hold the pipes: read them to their end without us.
        outputStream?.detach()
        errorStream?.detach()
        outputStream = nil
        errorStream = nil
        // A pending escalation keeps the object (and its timer) alive until it fired.
        if killTimer == nil { retainedSelf = nil }
        onExit(termination)
    }
}

/// The children `SpawnedProcess.endAll` owes an end, process-wide, behind one lock.
private enum LiveChildren {
    private static let children = Locked<[ObjectIdentifier: SpawnedProcess]>([:])

    static func withLock<Result>(_ body: (inout [ObjectIdentifier: SpawnedProcess]) -> Result) -> Result {
        children.withLock(body)
    }
}

/// One captured output pipe, read on the queue until end of file, keeping at most `limit`
/// bytes (the first or the last): a child that writes gigabytes costs no more memory than that.
private final class CapturedStream {
    private let source: DescriptorSource
    private let limit: Int
    private let window: CaptureWindow
    /// What was kept; in `.tail` mode it may hold up to twice `limit` between trims.
    private var kept: [UInt8] = []
    private(set) var isFinished = false
    private var onFinished: (() -> Void)?
    /// Set by `detach`: the stream keeps itself alive until its end of file.
    private var retainedSelf: CapturedStream?

    init(fd: Int32, capture: SpawnedProcess.Capture, queue: DispatchQueue) {
        self.limit = capture.limit
        self.window = capture.window
        SystemCalls.setNonBlocking(fd)
        source = DescriptorSource(fd: fd, condition: .readable, queue: queue) { SystemCalls.closeQuietly(fd) }
    }

    /// The bytes kept: the first or the last `limit` of what was read.
    var data: [UInt8] {
        switch window {
        case .head: return kept
        case .tail: return kept.count > limit ? Array(kept.suffix(limit)) : kept
        }
    }

    func start(onFinished: @escaping () -> Void) {
        self.onFinished = onFinished
        source.start { [unowned self] in
            // Strong for the whole handler: the end of a detached stream drops its self-retain.
            let stream = self
            if stream.drain() { stream.onFinished?() }
        }
    }

    /// Reads what is there now (up to `readsPerEvent` reads), without waiting for more.
    func drainAvailable() {
        _ = drain()
    }

    /// The owner is done with the stream: keep reading and dropping until end of file, so a
    /// descendant that still writes into the pipe is never blocked by a full pipe.
    func detach() {
        onFinished = nil
        kept = []
        guard !isFinished else { return }
        retainedSelf = self
    }

    /// Most reads per call of `drain`: a child that writes as fast as we read would otherwise
    /// keep the queue in one handler for good; the level-triggered source fires again for the rest.
    static let readsPerEvent = 16

    /// Reads what is there, at most `readsPerEvent` times; returns true when end of file (or
    /// an error) ended the stream.
    private func drain() -> Bool {
        guard !isFinished else { return false }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var reads = 0
        while reads < Self.readsPerEvent {
            reads += 1
            let count = buffer.withUnsafeMutableBytes { read(source.fd, $0.baseAddress, $0.count) }
            if count > 0 {
                keep(buffer[0..<count])
            } else if count == -1 && errno == EINTR {
                continue
            } else if count == -1 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return false
            } else {
                isFinished = true
                source.cancel()
                retainedSelf = nil
                return true
            }
        }
        return false
    }

    private func keep(_ bytes: ArraySlice<UInt8>) {
        guard retainedSelf == nil else { return }  // detached: dropped
        switch window {
        case .head:
            let room = max(0, limit - kept.count)
            if room > 0 { kept.append(contentsOf: bytes.prefix(room)) }
        case .tail:
            kept.append(contentsOf: bytes.suffix(limit))
            // Trim in batches: amortized O(1) per byte, at most twice `limit` held.
            if kept.count > 2 * max(limit, 1) { kept.removeFirst(kept.count - limit) }
        }
    }
}
