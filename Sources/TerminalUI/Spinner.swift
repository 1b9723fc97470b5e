// Spinner: a one-line "working…" indicator redrawn on a timer, shown only for slow jobs on a tty.

import Dispatch
import Foundation
import Glibc

/// A one-line spinner with a label ("⠹ Sending with Telegram…"), for waiting on a job.
///
/// `start()` schedules the first frame after `delay`, so a job that ends sooner never draws
/// anything; `stop(finalLine:)` cancels the timer, erases the spinner line if it was drawn and
/// prints the outcome line. It draws only when the output is a terminal and TERM is not dumb;
/// otherwise `stop` just prints the final line. Thread-safe: all state lives on a private serial
/// queue (the invariant behind `@unchecked Sendable`); `stop` waits for that queue, so nothing
/// is drawn after it returns. It writes to the output fd directly and does not own it.
public final class Spinner: @unchecked Sendable {
    public static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    private let queue = DispatchQueue(label: "TerminalUI.Spinner")
    private let terminal: Terminal
    private let delay: Double
    private let interval: Double
    private let drawsOnOutput: Bool
    private var label: String
    private var timer: DispatchSourceTimer?
    private var frameIndex = 0
    private var drawn = false
    private var stopped = false

    /// - Parameters:
    ///   - label: shown after the spinner; untrusted text is sanitized.
    ///   - delay: seconds before the first frame.
    ///   - interval: seconds between frames.
    public init(
        label: String, output: Int32 = STDOUT_FILENO,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        delay: Double = 0.5, interval: Double = 0.1
    ) {
        self.label = TextSanitizer.sanitize(label)
        self.terminal = Terminal(input: output, output: output, environment: environment)
        self.delay = delay
        self.interval = interval
        self.drawsOnOutput = terminal.outputIsTTY && !terminal.isDumb
    }

    /// Whether this spinner will ever draw (the output is a capable terminal).
    public var isEnabled: Bool { drawsOnOutput }

    /// Schedules drawing after the delay. Does nothing when disabled, started, or stopped.
    public func start() {
        queue.sync {
            guard drawsOnOutput, timer == nil, !stopped else { return }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + delay, repeating: interval)
            timer.setEventHandler { [weak self] in self?.drawFrame() }
            self.timer = timer
            timer.resume()
        }
    }

    /// Changes the label; the next frame shows it.
    public func update(label: String) {
        queue.sync { self.label = TextSanitizer.sanitize(label) }
    }

    /// Stops the spinner, erases its line if drawn, then prints `finalLine` (if any) and a newline.
    /// Later calls do nothing.
    public func stop(finalLine: String? = nil) {
        queue.sync {
            guard !stopped else { return }
            stopped = true
            timer?.cancel()
            timer = nil
            var text = drawn ? "\r\u{1B}[2K" : ""
            drawn = false
            if let finalLine { text += TextSanitizer.sanitize(finalLine) + "\n" }
            if !text.isEmpty { terminal.write(text) }
        }
    }

    /// Erases the spinner's line (if drawn) and runs `body`, which prints a line of its own
    /// ("share: cancelling …"), before the next frame: the message gets a line to itself instead
    /// of being appended to the spinner's, and the spinner goes on below it. Once stopped, only
    /// runs `body`.
    public func interject(_ body: () -> Void) {
        queue.sync {
            if drawn {
                terminal.write("\r\u{1B}[2K")
                drawn = false
            }
            body()
        }
    }

    private func drawFrame() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !stopped else { return }
        let width = max(1, terminal.size.columns - 1)
        let line = Self.frames[frameIndex % Self.frames.count] + " " + label
        frameIndex += 1
        drawn = true
        terminal.write("\r\u{1B}[2K" + DisplayWidth.truncate(line, toWidth: width))
    }
}
