// BrowseLoop: the interactive `share browse` session — keys, loads that can be stopped, the Action sheet.
import ActivityBrokerClient
import Foundation
import Navigation
import TerminalUI

/// The interactive loop of `share browse`.
///
/// Keys are read all the time, also while a page loads or an activity runs: q or Esc stops
/// the load (cancels the activity), Ctrl-C stops it and ends the session. Ctrl-Z suspends,
/// and a resize or `fg` redraws, whatever is going on. Links are followed by number and
/// Enter (a digit alone only types); a link that would leave the terminal for the system's
/// handler (`ssh:`, `smb:`, `mailto:`, any scheme but http and https) is opened only after a `y`.
struct BrowseLoop {
    let session: NavigationSession
    let terminal: Terminal
    let configuration: NavigationConfiguration
    /// Why there is no broker connection, if there is none.
    let brokerProblem: String?
    /// What the trigger reporter has to tell; shown when the status line is free.
    let notices: TriggerNotices
    /// The session's broker, which remembers how its last listing failed: a refusal is not
    /// an absence. Nil without a broker connection.
    let offering: RecordingOffering?

    private var state = BrowseState() { didSet { bodyCache = nil } }
    private var readerShown = false { didSet { if readerShown != oldValue { bodyCache = nil } } }
    /// The page's formatted text and the width it was wrapped to: formatting a large page is
    /// the slow part of a key, so it is done again only when the state, the reader toggle or
    /// the width changes, not once or twice per key.
    private var bodyCache: (width: Int, lines: [String])?
    private var scroll = 0
    private var status: String?
    private var linkInput = ""
    /// A link waiting for `y` before it goes to the system's handler, and what the question shows.
    private var pendingExternal: (url: URL, shown: String)?

    init(
        session: NavigationSession, terminal: Terminal, configuration: NavigationConfiguration,
        brokerProblem: String?, notices: TriggerNotices, offering: RecordingOffering?
    ) {
        self.session = session
        self.terminal = terminal
        self.configuration = configuration
        self.brokerProblem = brokerProblem
        self.notices = notices
        self.offering = offering
    }

    mutating func run() async throws -> ShareExit {
        try terminal.enterRawMode(alternateScreen: true, hideCursor: true)
        defer { terminal.restore() }
        let keys = KeyReader(terminal: terminal)
        defer { keys.stop() }
        let events = BrowseEvents(keys: keys)
        defer { events.stop() }
        let session = self.session
        let start = await whileLoading(events) { () async -> String? in
            do throws(NavigationError) {
                try await session.start()
            } catch {
                return "\(error)"
            }
            return nil
        }
        if case .ended(let exit) = start { return exit }
        if showNotice() { draw() }
        for await event in events.stream {
            guard case .terminal(let event) = event else { continue }
            switch event {
            case .key(.control(Self.ctrlZ)):
                // Raw mode turns Ctrl-Z into a byte; on `fg` a `.redraw` comes.
                terminal.suspend()
                continue
            case .key(let key):
                if let exit = try await handle(key, events: events) { return exit }
            case .endOfInput:
                await session.done()
                return .completed
            case .redraw, .timeout:
                break
            }
            clampScroll()
            _ = showNotice()
            draw()
        }
        return .completed
    }

    /// Ctrl-Z as raw mode delivers it.
    static let ctrlZ: UInt8 = 0x1A

    /// Puts the trigger reporter's notice in the status line if the line is free; else it
    /// waits for the next draw. Whether there was one to show.
    private mutating func showNotice() -> Bool {
        guard status == nil, let notice = notices.take() else { return false }
        status = notice
        return true
    }

    /// How a load ended: with the session going on (and why the load failed, if it did), or
    /// with the session ended by a key.
    enum LoadEnd {
        case done(failure: String?)
        case ended(ShareExit)
    }

    /// Runs `operation` (a load; it returns why it failed) while reading keys: q or Esc
    /// cancels it, Ctrl-C or the end of input cancels it and ends the session. Draws
    /// "Loading…" first and the result after.
    private mutating func whileLoading(
        _ events: BrowseEvents, _ operation: @escaping @Sendable () async -> String?
    )
        async -> LoadEnd
    {
        state.isLoading = true
        draw()
        let task = Task { () -> String? in
            let failure = await operation()
            events.loaded()
            return failure
        }
        var exit: ShareExit?
        var stopped = false
        waiting: for await event in events.stream {
            guard case .terminal(let event) = event else { break waiting }  // loaded
            switch event {
            case .key(.character("q")), .key(.escape):
                // A second q while the load winds down means Done, as it does after.
                if stopped { exit = .completed }
                stopped = true
                task.cancel()
                status = "Stopped loading."
            case .key(.ctrlC):
                task.cancel()
                exit = .cancelled
            case .endOfInput, .key(.ctrlD):
                task.cancel()
                exit = .completed
            case .key(.control(Self.ctrlZ)):
                terminal.suspend()
            case .redraw:
                draw()
            default:
                break
            }
        }
        let failure = await task.value
        if let exit {
            await session.done()
            return .ended(exit)
        }
        if !stopped {
            readerShown = false
            scroll = 0
        }
        await refresh()
        draw()
        return .done(failure: failure)
    }

    /// One key; returns an exit status when the session ends.
    private mutating func handle(_ key: Key, events: BrowseEvents) async throws -> ShareExit? {
        if let external = pendingExternal {
            pendingExternal = nil
            if key == .character("y") || key == .character("Y") {
                return await open(external.url, events: events, confirmed: true)
            } else {
                status = "Not opened."
            }
            return nil
        }
        status = nil
        if let digit = key.digit {
            // Digits only type the number; Enter follows (a stray digit must not navigate).
            if linkInput.count < String(max(1, BrowseView.shownLinkCount(state))).count {
                linkInput += String(digit)
            }
            return nil
        }
        switch key {
        case .enter where !linkInput.isEmpty:
            let number = linkInput
            linkInput = ""
            return await follow(number, events: events)
        case .backspace where !linkInput.isEmpty:
            linkInput.removeLast()
            return nil
        case .character("q"), .escape:
            if !linkInput.isEmpty {
                linkInput = ""
                return nil
            }
            await session.done()
            return .completed
        default:
            linkInput = ""
        }
        let page = view.bodyRoom
        switch key {
        case .character("b"), .left:
            if (try? await session.goBack()) != true { status = "Nothing to go back to." }
            await refresh()
        case .character("f"), .right:
            if (try? await session.goForward()) != true { status = "Nothing to go forward to." }
            await refresh()
        case .character("r"):
            if state.reader == nil { status = "This page has no reader view." } else { readerShown.toggle() }
            scroll = 0
        case .down, .character("j"): scroll += 1
        case .up, .character("k"): scroll -= 1
        case .pageDown, .character(" "): scroll += max(1, page - 1)
        case .pageUp: scroll -= max(1, page - 1)
        case .home, .character("g"): scroll = 0
        case .end, .character("G"): scroll = Int.max / 2
        case .character("a"):
            if let exit = await actionSheet(events: events) { return exit }
        case .character("o"):
            do {
                try await session.openInBrowser()
                return .completed
            } catch {
                status = "Could not open the browser: \(error)"
            }
        case .ctrlC:
            await session.done()
            return .cancelled
        case .ctrlD:
            await session.done()
            return .completed
        default:
            break
        }
        return nil
    }

    private mutating func follow(_ number: String, events: BrowseEvents) async -> ShareExit? {
        guard let index = Int(number), index >= 1, index <= BrowseView.shownLinkCount(state) else {
            status = "There is no link \(number)."
            return nil
        }
        return await open(state.links[index - 1].url, events: events, confirmed: false)
    }

    /// Opens a link of the page as the router decides; a system action waits for `y` first.
    /// Returns an exit status when a key ended the session during the load.
    private mutating func open(_ url: URL, events: BrowseEvents, confirmed: Bool) async -> ShareExit? {
        let outcome = configuration.router.route(url, from: state.url)
        switch outcome.action {
        case .discarded(let reason):
            status = "Not opened: \(reason)"
        case .systemAction:
            guard confirmed else {
                // The view asks, fitted to the width: the URL loses its middle, never the hint.
                pendingExternal = (url, outcome.systemURL(for: url)?.absoluteString ?? url.absoluteString)
                return nil
            }
            do {
                try await session.open(url)
                status = "Handed to the system opener."
            } catch {
                status = "\(error)"
            }
        case .handled:
            let session = self.session
            let end = await whileLoading(events) { () async -> String? in
                do throws(NavigationError) {
                    try await session.open(url)
                } catch {
                    if case .load(.cancelled) = error { return nil }
                    return "\(error)"
                }
                return nil
            }
            switch end {
            case .ended(let exit): return exit
            case .done(let failure?) where status == nil && state.loadError == nil: status = failure
            case .done: break
            }
        }
        return nil
    }

    /// The Action sheet: the broker's offer plus the app's own, in the picker; then perform.
    /// Both the broker's listing and the activity run while keys are read (`whileWorking`):
    /// a slow broker or a long job is cancelled with Esc, and Ctrl-C ends the session.
    /// Returns an exit status when a key ended the session.
    private mutating func actionSheet(events: BrowseEvents) async -> ShareExit? {
        let session = self.session
        status = "Asking the activity broker… Esc cancels"
        draw()
        let listing = await whileWorking(events) { () async -> Result<ActivitySheet, NavigationError> in
            do throws(NavigationError) {
                return .success(try await session.actionActivities())
            } catch {
                return .failure(error)
            }
        }
        let sheet: ActivitySheet
        switch listing {
        case .ended(let exit): return exit
        case .cancelled:
            status = "Cancelled."
            return nil
        case .done(.failure(let error)):
            status = "No Action sheet: \(error)"
            return nil
        case .done(.success(let listed)):
            sheet = listed
        }
        let trouble = brokerTrouble(sheet)
        if let trouble, sheet.all.isEmpty {
            status = trouble.message
            return nil
        }
        let entries = sheet.all.map(ActivityPickerEntry.init(offered:))
        var model = ActivityPickerModel(
            header: ActivityPickerHeader(title: state.title ?? "", url: sheet.items.url), entries: entries,
            status: trouble?.ownOnly)
        var chosen: String?
        drawPicker(model)
        pickerLoop: for await event in events.stream {
            guard case .terminal(let event) = event else { continue }
            switch event {
            case .key(.control(Self.ctrlZ)):
                terminal.suspend()
                continue
            case .key(let key):
                switch model.handle(key) {
                case .chosen(let id)?: chosen = id; break pickerLoop
                case .cancelled?: break pickerLoop
                case nil: break
                }
            case .endOfInput: break pickerLoop
            case .redraw, .timeout: break
            }
            drawPicker(model)
        }
        guard let chosen, let activity = sheet.all.first(where: { $0.id == chosen }) else { return nil }
        status = "\(activity.name)… Esc cancels"
        draw()
        let performed = await whileWorking(events) { () async -> Result<ActivityOutcome, NavigationError> in
            do throws(NavigationError) {
                return .success(try await session.perform(chosen))
            } catch {
                return .failure(error)
            }
        }
        switch performed {
        case .ended(let exit):
            return exit
        case .cancelled:
            status = "Cancelled: \(activity.name)"
        case .done(.success(let outcome)):
            switch outcome.state {
            case .completed:
                status = CompletedLine.text(
                    name: activity.name, category: activity.category, results: outcome.providerResults)
            case .cancelled: status = "Cancelled: \(activity.name)"
            case .failed: status = "Failed: \(outcome.message ?? activity.name)"
            }
        case .done(.failure(let error)):
            status = "Failed: \(error)"
        }
        return nil
    }

    /// Why the broker's activities are missing from `sheet`, said as what happened: no broker
    /// (not reachable) is not a broker that refused the page (it answered, with an error), and
    /// `ownOnly` is the picker's line when the app's own activities are still there.
    private func brokerTrouble(_ sheet: ActivitySheet) -> (message: String, ownOnly: String)? {
        if let brokerProblem {
            return (
                "The activity broker is not reachable: \(brokerProblem)",
                "The activity broker is not reachable: only this app's own activities."
            )
        }
        guard let listed = sheet.brokerError else { return nil }
        switch offering?.lastListingError {
        case .unreachable?, nil:
            return (
                "The activity broker is not reachable: \(listed)",
                "The activity broker is not reachable: only this app's own activities."
            )
        case .other?:
            return (
                "The activity broker failed: \(listed)",
                "The activity broker failed: only this app's own activities."
            )
        case let refusal?:
            return (
                "The activity broker refused this page: \(refusal.message)",
                "The activity broker refused this page: only this app's own activities."
            )
        }
    }

    /// How work run with `whileWorking` ended.
    enum WorkEnd<Value> {
        /// It finished.
        case done(Value)
        /// Esc cancelled it, and it has wound down.
        case cancelled
        /// A key ended the session.
        case ended(ShareExit)
    }

    /// Runs `operation` in a task while keys are read, so that the session never goes deaf
    /// until a broker call or a job times out: Esc or q cancels the task (a broker `Perform`
    /// then cancels its job) and says so in the status line, then waits for it to wind down;
    /// Ctrl-C cancels it and ends the session (exit 130), as during a load, and a second Ctrl-C
    /// leaves without waiting. Redraws and Ctrl-Z are handled; other keys are dropped.
    private mutating func whileWorking<Value: Sendable>(
        _ events: BrowseEvents, _ operation: @escaping @Sendable () async -> Value
    ) async -> WorkEnd<Value> {
        let task = Task { () -> Value in
            let value = await operation()
            events.loaded()
            return value
        }
        var exit: ShareExit?
        var cancelled = false
        waiting: for await event in events.stream {
            guard case .terminal(let event) = event else { break waiting }  // finished
            switch event {
            case .key(.character("q")), .key(.escape):
                cancelled = true
                task.cancel()
                status = "Cancelling…"
            case .key(.ctrlC):
                if exit == .cancelled { return .ended(.cancelled) }
                task.cancel()
                exit = .cancelled
                status = "Cancelling… Ctrl-C again quits at once"
            case .endOfInput, .key(.ctrlD):
                task.cancel()
                exit = exit ?? .completed
            case .key(.control(Self.ctrlZ)):
                terminal.suspend()
                continue
            case .redraw, .key, .timeout:
                break
            }
            draw()
        }
        let value = await task.value
        if let exit {
            await session.done()
            return .ended(exit)
        }
        return cancelled ? .cancelled : .done(value)
    }

    private mutating func refresh() async {
        state = await BrowseState(session: session)
        if state.reader == nil { readerShown = false }
        clampScroll()
    }

    /// The page's formatted text for the current width, from the cache when it still holds.
    private mutating func body() -> [String] {
        let view = self.view
        if let cache = bodyCache, cache.width == view.width { return cache.lines }
        let lines = view.body(state, readerShown: readerShown)
        bodyCache = (view.width, lines)
        return lines
    }

    /// Keeps the scroll position between the top and the last screenful: scrolling past
    /// either end stops there, so the first key back moves at once.
    private mutating func clampScroll() {
        scroll = min(max(0, scroll), view.scrollLimit(bodyCount: body().count))
    }

    private var view: BrowseView {
        BrowseView(
            size: terminal.size, colors: terminal.colorSupport,
            dismissTitle: configuration.dismissButtonStyle.title,
            tint: configuration.tintColor.map { TerminalColor(red: $0.red, green: $0.green, blue: $0.blue) })
    }

    /// Draws the page. Each row is cleared and clipped to the width by `Screen.styledLine`: a
    /// row the view got wrong still cannot wrap onto the next one (the address bar wrapping
    /// under the title let a page hide the real site).
    private mutating func draw() {
        let body = body()
        let view = self.view
        var screen = Screen(size: view.size, colors: view.colors)
        screen.clear()
        let lines = view.lines(
            state, body: body, scroll: scroll, status: status, linkInput: linkInput,
            confirming: pendingExternal?.shown)
        for (row, line) in lines.enumerated() { screen.styledLine(line, row: row) }
        screen.flush(to: terminal)
    }

    private func drawPicker(_ model: ActivityPickerModel) {
        let renderer = ActivityPickerRenderer(size: terminal.size, colors: terminal.colorSupport)
        var screen = Screen(terminal: terminal)
        screen.clear()
        for (row, line) in renderer.lines(for: model).enumerated() { screen.styledLine(line, row: row) }
        screen.flush(to: terminal)
    }
}
