// RawModeRegistry: async-signal-safe record of terminals in raw mode; signal handlers restoring them.

import Foundation
import Glibc

/// One terminal in raw mode as the signal handlers see it: plain data, read without locks.
struct RawModeSlot {
    var active: Int32 = 0
    /// The terminal whose attributes are saved and set (the input side).
    var fd: Int32 = -1
    /// Where cursor and screen sequences go (the output side; often the same terminal).
    var outputFD: Int32 = -1
    /// When it was registered: later slots are restored first, so two raw sessions on one
    /// terminal unwind to the older one's original attributes.
    var order: Int64 = 0
    var hideCursor: Int32 = 0
    var alternateScreen: Int32 = 0
    var saved = termios()
    var raw = termios()
}

/// Terminals in raw mode, and the handlers that give them back on a signal.
///
/// Invariant (why the unsynchronised reads are sound): slots and `HandlerState` live in buffers
/// allocated before any handler is installed and never freed; a slot's data is written before
/// `active` is set and `active` is cleared before the slot is reused, all under `lock`, which
/// handlers never take. Handlers only call `tcsetattr`, `write`, `tcgetpgrp`, `getpgrp`,
/// `sigaction`, `signal`, `kill`/`raise` — all async-signal-safe — and touch no Swift object or
/// global variable (only those pointers' memory). The handlers' `generation` bump is not atomic:
/// two racing bumps may count as one, which still asks for a redraw.
///
/// Handlers run only on threads that do not block these signals; a process whose threads all
/// block them (Swift Testing's workers do) gets no cover until one thread unblocks them.
///
/// On SIGINT, SIGTERM, SIGHUP, SIGQUIT: restore every slot (leave the alternate screen, show the
/// cursor, put back the saved termios), newest first, then re-raise with the default
/// disposition. A signal the process ignored when the first terminal went raw (nohup) stays
/// ignored. On SIGTSTP: restore, then stop with the default action. On SIGCONT: re-enter raw
/// mode on every active slot (when in the foreground, or on a terminal that is not our
/// controlling one; also after an uncatchable SIGSTOP), re-arm SIGTSTP, and ask readers to
/// redraw. SIGWINCH only asks readers to redraw. Readers learn of a redraw from `generation`
/// and are woken through `wakeFD`. Crash signals (SIGILL/SIGSEGV from a trap) are left to the
/// Swift runtime's backtracer; after one, the terminal needs `reset`.
enum RawModeRegistry {
    static let capacity = 8
    static let allSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT, SIGWINCH]

    nonisolated(unsafe) static let slots: UnsafeMutablePointer<RawModeSlot> = {
        let buffer = UnsafeMutablePointer<RawModeSlot>.allocate(capacity: capacity)
        buffer.initialize(repeating: RawModeSlot(), count: capacity)
        return buffer
    }()

    /// State the handlers write or read besides the slots. Behind a pointer, like the slots,
    /// because Swift's run-time exclusivity checks on global variables are not safe to trip from
    /// a signal handler that interrupts an access to the same variable.
    struct HandlerState {
        /// Bumped by SIGWINCH and SIGCONT; a reader that sees it change redraws.
        var generation: Int32 = 0
        /// Read end of the self-pipe the handlers write one byte to; -1 before the first install.
        var wakeFD: Int32 = -1
        var wakeWriteFD: Int32 = -1
        /// 1 while our SIGTSTP handler is meant to be armed (installed, and SIGTSTP not ignored).
        var suspendArmed: Int32 = 0
        /// Our SIGTSTP action, kept so the SIGCONT handler can re-arm it without building one.
        var suspendAction = sigaction()
    }

    nonisolated(unsafe) static let state: UnsafeMutablePointer<HandlerState> = {
        let pointer = UnsafeMutablePointer<HandlerState>.allocate(capacity: 1)
        pointer.initialize(to: HandlerState())
        return pointer
    }()

    /// Bumped by SIGWINCH and SIGCONT; a reader that sees it change redraws.
    static var generation: Int32 { state.pointee.generation }
    /// Read end of the self-pipe the handlers write one byte to (poll it for wake-ups), or -1.
    static var wakeFD: Int32 { state.pointee.wakeFD }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var previousActions: [Int32: sigaction] = [:]
    nonisolated(unsafe) private static var activeCount = 0
    nonisolated(unsafe) private static var nextOrder: Int64 = 0

    /// Records a terminal about to enter raw mode; installs the handlers with the first one.
    /// Returns the slot, or nil when all slots are taken (the terminal then has no signal cover).
    static func register(
        fd: Int32, outputFD: Int32, saved: termios, raw: termios, hideCursor: Bool, alternateScreen: Bool
    ) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        _ = state  // created before any handler can run
        let buffer = slots
        guard let index = (0..<capacity).first(where: { buffer[$0].active == 0 }) else { return nil }
        buffer[index].fd = fd
        buffer[index].outputFD = outputFD
        buffer[index].saved = saved
        buffer[index].raw = raw
        buffer[index].hideCursor = hideCursor ? 1 : 0
        buffer[index].alternateScreen = alternateScreen ? 1 : 0
        nextOrder += 1
        buffer[index].order = nextOrder
        buffer[index].active = 1
        activeCount += 1
        if activeCount == 1 { install() }
        return index
    }

    /// Forgets a slot after its terminal was restored; puts back the previous handlers with the last one.
    static func unregister(_ index: Int) {
        lock.lock()
        defer { lock.unlock() }
        precondition(slots[index].active == 1, "unregistering a free raw-mode slot")
        slots[index].active = 0
        activeCount -= 1
        if activeCount == 0 { uninstall() }
    }

    private static func install() {
        if state.pointee.wakeFD < 0 {
            var fds: [Int32] = [-1, -1]
            if pipe(&fds) == 0 {
                for fd in fds {
                    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                }
                state.pointee.wakeWriteFD = fds[1]
                state.pointee.wakeFD = fds[0]
            }
        }
        for signal in allSignals {
            var previous = sigaction()
            sigaction(signal, nil, &previous)
            // Respect an ignored signal (nohup, shells without job control): we must not turn
            // "ignore" into "die".
            if signal != SIGWINCH && signal != SIGCONT && isIgnored(previous) { continue }
            var action = sigaction()
            switch signal {
            case SIGCONT: action.__sigaction_handler.sa_handler = onContinueSignal
            case SIGWINCH: action.__sigaction_handler.sa_handler = onResizeSignal
            default: action.__sigaction_handler.sa_handler = onLeavingSignal  // SIGTSTP too
            }
            sigemptyset(&action.sa_mask)
            // Block the others while one runs, so restore and re-enter never interleave.
            for other in allSignals { sigaddset(&action.sa_mask, other) }
            action.sa_flags = SA_RESTART
            if signal == SIGTSTP {
                state.pointee.suspendAction = action
                state.pointee.suspendArmed = 1
            }
            previousActions[signal] = previous
            sigaction(signal, &action, nil)
        }
    }

    private static func uninstall() {
        state.pointee.suspendArmed = 0
        for (signal, previous) in previousActions {
            var action = previous
            sigaction(signal, &action, nil)
        }
        previousActions = [:]
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == 1  // SIG_IGN
    }

    /// Stops the process group as Ctrl-Z would (raw mode turns that key into a byte): our SIGTSTP
    /// handler gives the terminal back first. Does nothing unless that handler is armed, so a
    /// process that ignores SIGTSTP, or one not in raw mode, is never stopped with a raw terminal.
    static func suspendProcessGroup() {
        guard state.pointee.suspendArmed != 0 else { return }
        kill(0, SIGTSTP)
    }

    // MARK: Async-signal-safe helpers (also used on the normal path)

    /// Calls `body` with each active slot index, most recently registered first. No allocation:
    /// a selection over the few slots, safe in a signal handler.
    static func forEachActiveSlotNewestFirst(_ body: (Int) -> Void) {
        var below = Int64.max
        while true {
            var best = -1
            for index in 0..<capacity where slots[index].active != 0 && slots[index].order < below {
                if best < 0 || slots[index].order > slots[best].order { best = index }
            }
            if best < 0 { return }
            below = slots[best].order
            body(best)
        }
    }

    /// Leaves the alternate screen, shows the cursor, puts back the saved termios of slot `index`.
    static func restoreTerminal(slot index: Int, when: Int32) {
        let slot = slots + index
        let output = slot.pointee.outputFD
        if slot.pointee.alternateScreen != 0 { writeStatic(output, "\u{1B}[?1049l") }
        if slot.pointee.hideCursor != 0 { writeStatic(output, "\u{1B}[?25h") }
        _ = tcsetattr(slot.pointee.fd, when, &slot.pointee.saved)
    }

    /// Puts slot `index` back into raw mode, alternate screen and hidden cursor as it was.
    static func reenterTerminal(slot index: Int, when: Int32) {
        let slot = slots + index
        let output = slot.pointee.outputFD
        _ = tcsetattr(slot.pointee.fd, when, &slot.pointee.raw)
        if slot.pointee.alternateScreen != 0 { writeStatic(output, "\u{1B}[?1049h") }
        if slot.pointee.hideCursor != 0 { writeStatic(output, "\u{1B}[?25l") }
    }

    static func writeStatic(_ fd: Int32, _ text: StaticString) {
        var offset = 0
        let count = text.utf8CodeUnitCount
        while offset < count {
            let n = write(fd, text.utf8Start + offset, count - offset)
            if n > 0 {
                offset += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }

    static func requestRedraw() {
        state.pointee.generation &+= 1
        let fd = state.pointee.wakeWriteFD
        if fd >= 0 {
            var byte: UInt8 = 1
            _ = write(fd, &byte, 1)
        }
    }
}

/// SIGTSTP and the terminating signals: put every terminal back, then take the signal's default
/// action (stop, or end) by re-raising it with the default disposition: blocked while we run,
/// delivered when we return. After a stop, SIGCONT re-arms this handler for SIGTSTP.
private func onLeavingSignal(_ signal: Int32) {
    let savedErrno = errno
    RawModeRegistry.forEachActiveSlotNewestFirst { index in
        RawModeRegistry.restoreTerminal(slot: index, when: TCSANOW)
    }
    _ = Glibc.signal(signal, SIG_DFL)
    _ = raise(signal)
    errno = savedErrno
}

private func onContinueSignal(_ signal: Int32) {
    let savedErrno = errno
    // Every active slot, not only those we suspended: after a SIGSTOP we could not catch, the
    // shell may have put its own attributes back. Raw mode is idempotent.
    for index in 0..<RawModeRegistry.capacity where RawModeRegistry.slots[index].active != 0 {
        let group = tcgetpgrp(RawModeRegistry.slots[index].fd)
        // Continued in the background (`bg`): leave the terminal to the shell until `fg`.
        if group == -1 || group == getpgrp() {
            RawModeRegistry.reenterTerminal(slot: index, when: TCSANOW)
        }
    }
    if RawModeRegistry.state.pointee.suspendArmed != 0 {
        _ = sigaction(SIGTSTP, &RawModeRegistry.state.pointee.suspendAction, nil)
    }
    RawModeRegistry.requestRedraw()
    errno = savedErrno
}

private func onResizeSignal(_ signal: Int32) {
    let savedErrno = errno
    RawModeRegistry.requestRedraw()
    errno = savedErrno
}
