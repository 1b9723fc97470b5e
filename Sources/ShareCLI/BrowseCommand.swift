// `share browse URL`: an in-app browsing session in the terminal whose Action button is the broker.
import ActivityBrokerClient
import DBus
import Foundation
import Navigation
import TerminalUI
import TextPages

/// Runs a `NavigationSession` full-screen: keys follow links, go back and forward, open the
/// Action sheet (the same picker as `share URL`), open in the browser, show the reader text,
/// and end the session. Without a terminal it prints the page once (title, address, links).
enum BrowseCommand {
    static func run(url string: String, bus: BusAddress) async throws -> ShareExit {
        guard let url = URL(string: string), let scheme = url.scheme?.lowercased(),
              ["http", "https", "file"].contains(scheme)
        else {
            throw ShareFailure("share browse takes an http, https or file URL, not '\(string)'", exit: .usage)
        }
        // Browsing works without a broker; only the Action sheet needs it.
        let broker = try? BrokerProxy.connect(bus: bus)
        let configuration = NavigationConfiguration(dismissButtonStyle: .done, entersReaderIfAvailable: true)
        let session = NavigationSession(
            url: url, configuration: configuration, loader: PageLoader(), offering: broker)
        let terminal = Terminal()
        guard terminal.isInteractive else { return try await printOnce(session) }
        var loop = BrowseLoop(session: session, terminal: terminal, configuration: configuration)
        return try await loop.run()
    }

    /// Plain output for pipes and dumb terminals: the state of the loaded page.
    private static func printOnce(_ session: NavigationSession) async throws -> ShareExit {
        do { try await session.start() } catch { throw ShareFailure("\(error)", exit: .failed) }
        let state = await BrowseState(session: session)
        if let error = state.loadError { throw ShareFailure("could not load the page: \(error)", exit: .failed) }
        let indicator = BrowseView.indicator(state.security)
        Output.line("\(indicator.isEmpty ? "" : indicator + " ")\(state.address?.text ?? "")")
        Output.line(state.title ?? "(untitled)")
        for (index, link) in state.links.enumerated() {
            Output.line("\(index + 1). \(link.text.isEmpty ? link.url.absoluteString : link.text) — \(link.url.absoluteString)")
        }
        await session.done()
        return .completed
    }
}

/// The interactive loop of `share browse`.
private struct BrowseLoop {
    let session: NavigationSession
    let terminal: Terminal
    let configuration: NavigationConfiguration

    private var state = BrowseState()
    private var readerShown = false
    private var scroll = 0
    private var status: String?
    private var linkInput = ""

    init(session: NavigationSession, terminal: Terminal, configuration: NavigationConfiguration) {
        self.session = session
        self.terminal = terminal
        self.configuration = configuration
    }

    mutating func run() async throws -> ShareExit {
        try terminal.enterRawMode(alternateScreen: true, hideCursor: true)
        defer { terminal.restore() }
        let keys = KeyReader(terminal: terminal)
        defer { keys.stop() }
        state.isLoading = true
        draw()
        try? await session.start()
        await refresh()
        draw()
        for await event in keys.events {
            switch event {
            case .key(let key):
                if let exit = try await handle(key, keys: keys) { return exit }
            case .endOfInput:
                await session.done()
                return .completed
            case .redraw, .timeout:
                break
            }
            draw()
        }
        return .completed
    }

    /// One key; returns an exit status when the session ends.
    private mutating func handle(_ key: Key, keys: KeyReader) async throws -> ShareExit? {
        status = nil
        if let digit = key.digit {
            linkInput += String(digit)
            // With fewer than ten links a digit is a whole number; otherwise Enter confirms.
            if state.links.count < 10 || linkInput.count == String(state.links.count).count {
                await follow(linkInput)
            }
            return nil
        }
        switch key {
        case .enter where !linkInput.isEmpty:
            await follow(linkInput)
        case .backspace where !linkInput.isEmpty:
            linkInput.removeLast()
        case .character("b"), .left:
            linkInput = ""
            if (try? await session.goBack()) != true { status = "Nothing to go back to." }
            await refresh()
        case .character("f"), .right:
            linkInput = ""
            if (try? await session.goForward()) != true { status = "Nothing to go forward to." }
            await refresh()
        case .character("r"):
            if state.reader == nil { status = "This page has no reader view." } else { readerShown.toggle() }
            scroll = 0
        case .down, .character("j"): scroll += 1
        case .up, .character("k"): scroll = max(0, scroll - 1)
        case .pageDown, .character(" "): scroll += max(1, terminal.size.rows - 6)
        case .pageUp: scroll = max(0, scroll - max(1, terminal.size.rows - 6))
        case .character("a"):
            await actionSheet(keys: keys)
        case .character("o"):
            do {
                try await session.openInBrowser()
                return .completed
            } catch {
                status = "Could not open the browser: \(error)"
            }
        case .character("q"), .escape:
            if !linkInput.isEmpty {
                linkInput = ""
            } else {
                await session.done()
                return .completed
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

    private mutating func follow(_ number: String) async {
        linkInput = ""
        guard let index = Int(number), (1...state.links.count).contains(index) else {
            status = "There is no link \(number)."
            return
        }
        state.isLoading = true
        draw()
        do {
            switch try await session.open(state.links[index - 1].url).action {
            case .handled: break
            case .systemAction: status = "Handed to the system opener."
            case .discarded(let reason): status = "Not opened: \(reason)"
            }
        } catch {
            status = "\(error)"
        }
        readerShown = false
        scroll = 0
        await refresh()
    }

    /// The Action sheet: the broker's offer plus the app's own, in the picker; then perform.
    private mutating func actionSheet(keys: KeyReader) async {
        let sheet: ActivitySheet
        do { sheet = try await session.actionActivities() } catch {
            status = "No Action sheet: \(error)"
            return
        }
        if let brokerError = sheet.brokerError, sheet.all.isEmpty {
            status = "The activity broker is not reachable: \(brokerError)"
            return
        }
        let entries = sheet.all.map(ActivityPickerEntry.init(offered:))
        var model = ActivityPickerModel(
            header: ActivityPickerHeader(title: state.title ?? "", url: sheet.items.url), entries: entries)
        var chosen: String?
        drawPicker(model)
        pickerLoop: for await event in keys.events {
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
            case .completed: status = activity.category == "share" ? "Sent with \(activity.name)" : "Done: \(activity.name)"
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
    }

    private var view: BrowseView {
        BrowseView(
            size: terminal.size, colors: terminal.colorSupport, dismissTitle: configuration.dismissButtonStyle.title,
            tint: configuration.tintColor.map { TerminalColor(red: $0.red, green: $0.green, blue: $0.blue) })
    }

    private func draw() {
        var screen = Screen(terminal: terminal)
        screen.clear()
        for (row, line) in view.lines(state, readerShown: readerShown, scroll: scroll, status: status, linkInput: linkInput)
            .enumerated()
        {
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
