// BrowseLoop: the interactive `share browse` session — keys, loads that can be stopped, the Action sheet.
import ActivityBrokerClient
import Foundation
import Navigation
import TerminalUI

/// The interactive loop of `share browse`.
///
/// Keys are read all the time, also while a page loads: q or Esc stops the load, Ctrl-C
/// stops it and ends the session. Links are followed by number and Enter (a digit alone only
/// types); a link that would leave the terminal for the system's handler (`ssh:`, `smb:`,
/// `mailto:`, any scheme but http and https) is opened only after a `y`.
struct BrowseLoop {
    let session: NavigationSession
    let terminal: Terminal
    let configuration: NavigationConfiguration
    /// Why there is no broker connection, if there is none.
    let brokerProblem: String?
    /// What the trigger reporter has to tell; shown when the status line is free.
    let notices: TriggerNotices

    private var state = BrowseState()
    private var readerShown = false
    private var scroll = 0
    private var status: String?
    private var linkInput = ""
    /// A link waiting for `y` before it goes to the system's handler.
    private var pendingExternal: URL?

    init(
        session: NavigationSession, terminal: Terminal, configuration: NavigationConfiguration,
        brokerProblem: String?, notices: TriggerNotices
    ) {
        self.session = session
        self.terminal = terminal
        self.configuration = configuration
        self.brokerProblem = brokerProblem
        self.notices = notices
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
                return await open(external, events: events, confirmed: true)
            } else {
                status = "Not opened."
            }
            return nil
        }
        status = nil
        if let digit = key.digit {
            // Digits only type the number; Enter follows (a stray digit must not navigate).
            if linkInput.count < String(max(1, state.links.count)).count { linkInput += String(digit) }
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
            await actionSheet(events: events)
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
        guard let index = Int(number), index >= 1, index <= state.links.count else {
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
                pendingExternal = url
                let target = outcome.systemURL(for: url)?.absoluteString ?? url.absoluteString
                status =
                    "Open \(target) outside the terminal, with the system's handler? y opens it, any other key does not."
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
    private mutating func actionSheet(events: BrowseEvents) async {
        let sheet: ActivitySheet
        do { sheet = try await session.actionActivities() } catch {
            status = "No Action sheet: \(error)"
            return
        }
        let brokerTrouble = brokerProblem ?? sheet.brokerError
        if let brokerTrouble, sheet.all.isEmpty {
            status = "The activity broker is not reachable: \(brokerTrouble)"
            return
        }
        let entries = sheet.all.map(ActivityPickerEntry.init(offered:))
        var model = ActivityPickerModel(
            header: ActivityPickerHeader(title: state.title ?? "", url: sheet.items.url), entries: entries,
            status: brokerTrouble.map { _ in
                "The activity broker is not reachable: only this app's own activities."
            })
        var chosen: String?
        drawPicker(model)
        pickerLoop: for await event in events.stream {
            guard case .terminal(let event) = event else { continue }
            switch event {
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
        guard let chosen, let activity = sheet.all.first(where: { $0.id == chosen }) else { return }
        status = "\(activity.name)…"
        draw()
        do {
            let outcome = try await session.perform(chosen)
            switch outcome.state {
            case .completed:
                status = CompletedLine.text(name: activity.name, category: activity.category, results: outcome.providerResults)
            case .cancelled: status = "Cancelled: \(activity.name)"
            case .failed: status = "Failed: \(outcome.message ?? activity.name)"
            }
        } catch {
            status = "Failed: \(error)"
        }
    }

    private mutating func refresh() async {
        state = await BrowseState(session: session)
        if state.reader == nil { readerShown = false }
        clampScroll()
    }

    /// Keeps the scroll position between the top and the last screenful: scrolling past
    /// either end stops there, so the first key back moves at once.
    private mutating func clampScroll() {
        scroll = min(max(0, scroll), view.scrollLimit(state, readerShown: readerShown))
    }

    private var view: BrowseView {
        BrowseView(
            size: terminal.size, colors: terminal.colorSupport,
            dismissTitle: configuration.dismissButtonStyle.title,
            tint: configuration.tintColor.map { TerminalColor(red: $0.red, green: $0.green, blue: $0.blue) })
    }

    private func draw() {
        var screen = Screen(terminal: terminal)
        screen.clear()
        for (row, line) in view.lines(
            state, readerShown: readerShown, scroll: scroll, status: status, linkInput: linkInput
        )
        .enumerated() {
            screen.move(row: row)
            screen.appendRaw(line)
        }
        screen.flush(to: terminal)
    }

    private func drawPicker(_ model: ActivityPickerModel) {
        let renderer = ActivityPickerRenderer(size: terminal.size, colors: terminal.colorSupport)
        var screen = Screen(terminal: terminal)
        screen.clear()
        for (row, line) in renderer.lines(for: model).enumerated() {
            screen.move(row: row)
            screen.appendRaw(line)
        }
        screen.flush(to: terminal)
    }
}
