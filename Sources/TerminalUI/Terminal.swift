// Terminal: an input/output file descriptor pair with raw mode, key reading and window size.

import Foundation
import Glibc
import SystemSupport

/// A terminal's size in character cells.
public struct TerminalSize: Equatable, Sendable {
    public var columns: Int
    public var rows: Int
    // Measured only here (and made up by tests): the memberwise initializer stays internal.

    /// Used when the size cannot be read (not a tty, or the tty reports 0).
    public static let fallback = TerminalSize(columns: 80, rows: 24)
}

/// What `Terminal.readEvent` returns.
public enum TerminalEvent: Equatable, Sendable {
    case key(Key)
    /// The timeout passed with no key.
    case timeout
    /// The window changed size or the process came back from a stop: draw everything again.
    case redraw
    /// End of input (EOF, or the other side of a pseudo-terminal closed).
    case endOfInput
}

/// A terminal on an input and an output file descriptor (by default standard input and output).
///
/// Not thread-safe: one thread owns a `Terminal` and makes all calls. It does not own the file
/// descriptors and never closes them. Raw mode turns off echo, line editing and keys that send
/// signals (Ctrl-C arrives as `.ctrlC`), keeps output processing (`\n` still moves to column 0);
/// the original termios and cursor are put back on `restore()`, on `deinit`, and by the signal
/// handlers of `RawModeRegistry` on SIGINT/SIGTERM/SIGHUP/SIGQUIT/SIGTSTP (installed while any
/// terminal is raw; the previous dispositions come back after). Output goes straight to
/// write(2), never through stdio buffers.
public final class Terminal {
    public let inputFD: Int32
    public let outputFD: Int32
    public let environment: [String: String]

    private var slot: Int?
    private var savedTermios: termios?
    private var rawHidesCursor = false
    private var rawUsesAlternateScreen = false
    private var decoder = KeyDecoder()
    private var queuedKeys: [Key] = []
    private var seenGeneration: Int32 = RawModeRegistry.generation

    /// Wraps `input` and `output`; `environment` decides `TERM` and color support (tests inject it).
    public init(
        input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.inputFD = input
        self.outputFD = output
        self.environment = environment
    }

    deinit {
        restore()
    }

    public var inputIsTTY: Bool { isatty(inputFD) == 1 }
    public var outputIsTTY: Bool { isatty(outputFD) == 1 }

    /// `TERM` is unset, empty or `dumb`: the terminal cannot move the cursor.
    public var isDumb: Bool {
        let term = environment["TERM"] ?? ""
        return term.isEmpty || term == "dumb"
    }

    /// Both ends are terminals and `TERM` can move the cursor: full-screen drawing works.
    public var isInteractive: Bool { inputIsTTY && outputIsTTY && !isDumb }

    /// The `RawModeRegistry` slot while raw (for tests).
    var registrySlot: Int? { slot }

    /// Whether raw mode is on (between `enterRawMode` and `restore`).
    public var isRaw: Bool { savedTermios != nil }

    /// The window size from TIOCGWINSZ on the output, then the input; else COLUMNS/LINES, else 80x24.
    public var size: TerminalSize {
        for fd in [outputFD, inputFD] {
            var window = winsize()
            if ioctl(fd, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 {
                return TerminalSize(columns: Int(window.ws_col), rows: Int(window.ws_row))
            }
        }
        let columns = environment["COLUMNS"].flatMap { Int($0) } ?? 0
        let rows = environment["LINES"].flatMap { Int($0) } ?? 0
        if columns > 0 && rows > 0 { return TerminalSize(columns: columns, rows: rows) }
        return .fallback
    }

    /// The colors `TextStyle` may use here: none unless the output is an interactive terminal.
    public var colorSupport: ColorSupport {
        outputIsTTY && !isDumb ? ColorSupport.detect(environment: environment) : .none
    }

    /// Writes all of `text` to the output with write(2), retrying on EINTR and partial writes.
    /// Output errors (a closed terminal) are dropped: there is nobody left to tell.
    public func write(_ text: String) {
        _ = SystemCalls.writeAll(outputFD, Array(text.utf8))
    }

    /// Enters raw mode; optionally switches to the alternate screen and hides the cursor.
    ///
    /// The original termios is recorded for the signal handlers before anything changes.
    /// Throws SystemSupport's `SystemError` when the input is not a terminal (tcgetattr) or tcsetattr fails.
    /// Calling it again while raw does nothing.
    public func enterRawMode(alternateScreen: Bool = false, hideCursor: Bool = true) throws {
        guard savedTermios == nil else { return }
        var original = termios()
        guard tcgetattr(inputFD, &original) == 0 else {
            throw SystemError("tcgetattr", code: errno)
        }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | IGNCR | BRKINT | INPCK | ISTRIP)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        slot = RawModeRegistry.register(
            fd: inputFD, outputFD: outputFD, saved: original, raw: raw,
            hideCursor: hideCursor, alternateScreen: alternateScreen)
        // TCSADRAIN keeps typeahead (a quick "2" is not lost), unlike TCSAFLUSH.
        guard tcsetattr(inputFD, TCSADRAIN, &raw) == 0 else {
            let code = errno
            if let slot { RawModeRegistry.unregister(slot) }
            slot = nil
            throw SystemError("tcsetattr", code: code)
        }
        savedTermios = original
        rawHidesCursor = hideCursor
        rawUsesAlternateScreen = alternateScreen
        if alternateScreen { write("\u{1B}[?1049h") }
        if hideCursor { write("\u{1B}[?25l") }
    }

    /// Leaves raw mode: alternate screen off, cursor shown, original termios back. Idempotent.
    public func restore() {
        guard var original = savedTermios else { return }
        if rawUsesAlternateScreen { write("\u{1B}[?1049l") }
        if rawHidesCursor { write("\u{1B}[?25h") }
        _ = tcsetattr(inputFD, TCSADRAIN, &original)
        // Unregister only after restoring: a signal in between restores twice, harmlessly.
        if let slot { RawModeRegistry.unregister(slot) }
        slot = nil
        savedTermios = nil
        decoder = KeyDecoder()
        queuedKeys = []
    }

    /// Runs `body` in raw mode and restores the terminal however it ends (return or throw).
    public func withRawMode<T>(
        alternateScreen: Bool = false, hideCursor: Bool = true, _ body: () throws -> T
    ) throws -> T {
        try enterRawMode(alternateScreen: alternateScreen, hideCursor: hideCursor)
        defer { restore() }
        return try body()
    }

    /// Suspends the process like Ctrl-Z does outside raw mode (in raw mode Ctrl-Z is the byte
    /// 0x1A, `.control(0x1A)`): the terminal is restored, the job stops, and on `fg` raw mode
    /// comes back and `readEvent` reports `.redraw`. Does nothing if SIGTSTP is ignored.
    public func suspend() {
        guard isRaw else { return }
        RawModeRegistry.suspendProcessGroup()
    }

    /// Waits for the next key, redraw request or end of input, up to `timeout` milliseconds
    /// (negative: no limit). Meant for raw mode. A lone ESC becomes `.escape` after
    /// `KeyDecoder.escapeTimeoutMilliseconds` without more bytes.
    public func readEvent(timeout: Int = -1) -> TerminalEvent {
        let start = DispatchTime.now().uptimeNanoseconds
        var escapeSince: UInt64?
        while true {
            if !queuedKeys.isEmpty { return .key(queuedKeys.removeFirst()) }
            if RawModeRegistry.generation != seenGeneration {
                seenGeneration = RawModeRegistry.generation
                return .redraw
            }
            let now = DispatchTime.now().uptimeNanoseconds
            let elapsed = Int((now - start) / 1_000_000)
            var wait = timeout < 0 ? -1 : max(0, timeout - elapsed)
            if decoder.hasPending {
                let since = escapeSince ?? now
                escapeSince = since
                let escapeLeft = max(0, Int(KeyDecoder.escapeTimeoutMilliseconds) - Int((now - since) / 1_000_000))
                wait = wait < 0 ? escapeLeft : min(wait, escapeLeft)
            }
            var fds = [pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0)]
            if RawModeRegistry.wakeFD >= 0 {
                fds.append(pollfd(fd: RawModeRegistry.wakeFD, events: Int16(POLLIN), revents: 0))
            }
            let ready = poll(&fds, nfds_t(fds.count), Int32(clamping: wait))
            if ready < 0 {
                if errno == EINTR { continue }
                return .endOfInput
            }
            if fds.count > 1 && fds[1].revents != 0 { drainWakePipe() }
            if fds[0].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 256)
                let n = read(inputFD, &buffer, buffer.count)
                if n > 0 {
                    escapeSince = nil
                    queuedKeys += decoder.feed(buffer[0..<n])
                    continue
                }
                if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                // 0 is EOF; EIO is a pseudo-terminal whose other side closed.
                queuedKeys += decoder.flush()
                if queuedKeys.isEmpty { return .endOfInput }
                continue
            }
            if ready == 0 {
                if decoder.hasPending, let since = escapeSince,
                    DispatchTime.now().uptimeNanoseconds - since
                        >= UInt64(KeyDecoder.escapeTimeoutMilliseconds) * 1_000_000
                {
                    queuedKeys += decoder.flush()
                    escapeSince = nil
                    continue
                }
                let total = Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
                if timeout >= 0 && total >= timeout { return .timeout }
            }
        }
    }

    private func drainWakePipe() {
        var sink = [UInt8](repeating: 0, count: 64)
        while read(RawModeRegistry.wakeFD, &sink, sink.count) > 0 {}
    }
}
