// ActivityPicker: runs the activity picker on a terminal (raw mode, inline drawing, key loop).

import Foundation
import Glibc

/// The interactive activity picker: draws below the cursor, reads keys until a choice or a cancel.
///
/// Drawing is inline (no alternate screen): the picker occupies as many rows as it needs under
/// the current line and erases itself when done, so the caller's next line ("Sending with
/// Telegram…") appears where the picker was. Keys and numbering are those of
/// `ActivityPickerModel`; Ctrl-Z suspends the job as usual. Use it when
/// `Terminal.isInteractive`, otherwise `NumberedPrompt` (`choose` decides).
public struct ActivityPicker: Sendable {
    /// What it shows and how keys move through it (`ActivityPickerModel(header:entries:status:)`).
    public var model: ActivityPickerModel

    public init(model: ActivityPickerModel) {
        self.model = model
    }

    /// Runs the picker on `terminal` until the user chooses or cancels; end of input cancels.
    ///
    /// Blocks the calling thread, which must own `terminal`. Enters raw mode with a hidden cursor
    /// and restores the terminal before returning or throwing (signals are covered by
    /// `RawModeRegistry`). Throws `SystemError` when raw mode cannot be entered (not a tty).
    public func run(on terminal: Terminal) throws -> PickerResult {
        try terminal.withRawMode(alternateScreen: false, hideCursor: true) {
            var model = self.model
            var drawnRows = 0
            func draw() {
                let renderer = ActivityPickerRenderer(size: terminal.size, colors: terminal.colorSupport)
                var frame = drawnRows > 0 ? "\r\u{1B}[\(drawnRows)A" : "\r"
                frame += "\u{1B}[J"
                let lines = renderer.lines(for: model)
                for line in lines { frame += line + "\r\n" }
                drawnRows = lines.count
                terminal.write(frame)
            }
            func erase() {
                if drawnRows > 0 { terminal.write("\r\u{1B}[\(drawnRows)A\u{1B}[J") }
                drawnRows = 0
            }
            defer { erase() }
            draw()
            while true {
                switch terminal.readEvent(timeout: -1) {
                case .key(.control(0x1A)):
                    // Ctrl-Z arrives as a byte in raw mode. On `fg` the SIGCONT handler asks
                    // for the redraw, so do not draw here.
                    terminal.suspend()
                    continue
                case .key(let key):
                    if let result = model.handle(key) { return result }
                case .timeout:
                    break
                case .redraw:
                    break
                case .endOfInput:
                    return .cancelled
                }
                draw()
            }
        }
    }

    /// Asks with the best interface the descriptors allow; nil when input is not a terminal.
    ///
    /// The full picker when input and output are terminals and TERM can move the cursor; when
    /// `output` is not a terminal (`share URL | cat`) the picker draws on `errorOutput` if that
    /// one is. With TERM=dumb, or no terminal to draw on, but a terminal as input: the
    /// `NumberedPrompt`, on `output` or else `errorOutput` if only that is a terminal. With no
    /// terminal as input there is nobody to ask: nil (the caller reports that `--activity` is
    /// needed). Throws `SystemError` only if raw mode fails on a terminal.
    public static func choose(
        header: ActivityPickerHeader, entries: [ActivityPickerEntry], status: String? = nil,
        input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, errorOutput: Int32 = STDERR_FILENO,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> PickerResult? {
        guard isatty(input) == 1 else { return nil }
        let drawOn = isatty(output) == 1 ? output : (isatty(errorOutput) == 1 ? errorOutput : output)
        let terminal = Terminal(input: input, output: drawOn, environment: environment)
        let model = ActivityPickerModel(header: header, entries: entries, status: status)
        if terminal.isInteractive { return try ActivityPicker(model: model).run(on: terminal) }
        return NumberedPrompt(model: model).run(input: input, output: drawOn)
    }
}
