// A running child process: exit watched through a pidfd, stdin fed and output read without blocking.
import Dispatch
import Glibc

/// One child started by `ChildProcessLauncher`.
///
/// Confined to the launcher's queue: every source and timer of it runs there, and its state
/// is only touched there (hence `@unchecked Sendable`; `terminate` hops onto the queue). The
/// completion runs exactly once. The object keeps itself alive until then, so a caller need
/// not hold it unless it wants to `terminate` it.
public final class SpawnedProcess: @unchecked Sendable {
    /// The child's process id, which is also its process group id.
    public let pid: pid_t
    private let queue: DispatchQueue
    private let capture: Capture
    private var onExit: (@Sendable (ProcessTermination) -> Void)?

    private var exitSource: DispatchSourceRead?
    private var inputSource: DispatchSourceWrite?
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
        output: Int32?, error: Int32?, capture: Capture,
        onExit: @escaping @Sendable (ProcessTermination) -> Void
    ) {
        self.pid = pid
        self.queue = queue
        self.capture = capture
        self.onExit = onExit
        if let input {
            inputBytes = Array(input.text.utf8)
            SystemCalls.setNonBlocking(input.fd)
            let source = DispatchSource.makeWriteSource(fileDescriptor: input.fd, queue: queue)
            source.setCancelHandler { SystemCalls.closeQuietly(input.fd) }
            inputSource = source
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
        if let inputSource {
            inputSource.setEventHandler { [unowned self] in self.writeInput() }
            inputSource.resume()
        }
        for stream in [outputStream, errorStream].compactMap({ $0 }) {
            stream.start { [unowned self] in self.finishIfDone() }
        }
        if !useSignalReaper, let pidfd = SystemCalls.pidfdOpen(pid) {
            let source = DispatchSource.makeReadSource(fileDescriptor: pidfd, queue: queue)
            source.setEventHandler { [unowned self] in self.reap() }
            source.setCancelHandler { SystemCalls.closeQuietly(pidfd) }
            exitSource = source
            source.resume()
        } else {
            ChildReaper.shared.watch(pid) { [queue] status in
                queue.async { [self] in self.exited(status) }
            }
        }
    }

    /// Ends the child: SIGTERM to its process group now, SIGKILL to the group after `grace`
    /// seconds if it has not ended by then (0 kills at once). Does nothing once the completion
    /// ran. May be called from any thread; acts asynchronously on the queue.
    public func terminate(grace: Double = 5) {
        queue.async { [self] in
            guard onExit != nil, killTimer == nil else { return }
            if grace <= 0 {
                signalGroup(SIGKILL)
                return
            }
            signalGroup(SIGTERM)
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + grace)
            timer.setEventHandler { [unowned self] in self.signalGroup(SIGKILL) }
            killTimer = timer
            timer.resume()
        }
    }

    /// Sends `signal` to the child's whole process group (descendants included).
    private func signalGroup(_ signal: Int32) {
        dispatchPrecondition(condition: .onQueue(queue))
        // The group outlives the leader while any member lives, so its id cannot be reused
        // for another group then; once every member is gone this is ESRCH.
        if kill(-pid, signal) != 0 && exit == nil {
            _ = kill(pid, signal)
        }
    }

    private func reap() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard exit == nil else { return }
        // nil: a spurious wake-up, still running.
        if let status = ProcessExit.poll(pid) { exited(status) }
    }

    private func exited(_ status: ProcessExit) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard exit == nil else { return }
        exit = status
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
        let fd = Int32(inputSource.handle)
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
        if !capture.reportAtExit && (outputStream?.isFinished == false || errorStream?.isFinished == false) { return }
        self.onExit = nil
        killTimer?.cancel()
        killTimer = nil
        let termination = ProcessTermination(
            exit: exit, standardOutput: outputStream?.data, standardError: errorStream?.data)
        // Descendants may still hold the pipes: read them to their end without us.
        outputStream?.detach()
        errorStream?.detach()
        outputStream = nil
        errorStream = nil
        retainedSelf = nil
        onExit(termination)
    }
}

/// One captured output pipe, read on the queue until end of file, keeping at most `limit`
/// bytes (the first or the last): a child that writes gigabytes costs no more memory than that.
private final class CapturedStream {
    private let source: DispatchSourceRead
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
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setCancelHandler { SystemCalls.closeQuietly(fd) }
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
        source.setEventHandler { [unowned self] in
            // Strong for the whole handler: the end of a detached stream drops its self-retain.
            let stream = self
            if stream.drain() { stream.onFinished?() }
        }
        source.resume()
    }

    /// Reads what is there now, without waiting for more.
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

    /// Reads what is there; returns true when end of file (or an error) ended the stream.
    private func drain() -> Bool {
        guard !isFinished else { return false }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(Int32(source.handle), $0.baseAddress, $0.count) }
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
