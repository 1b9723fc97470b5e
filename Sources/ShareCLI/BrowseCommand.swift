// `share browse URL`: an in-app browsing session in the terminal whose Action button is the broker.
import ActivityBrokerClient
import DBus
import Foundation
import Navigation
import TerminalUI
import TextPages

/// Runs a `NavigationSession` full-screen (`BrowseLoop`): keys follow links, go back and
/// forward, open the Action sheet (the same picker as `share URL`), open in the browser, show
/// the reader text, and end the session. Without a terminal it prints the page once (title,
/// address, links), sanitized like everything `share` prints.
enum BrowseCommand {
    /// Where the terminal's links go: the default policy, except that `file:` URLs are not
    /// opened (`share browse` shows web pages, http and https, only). `share open` routes
    /// with it too, so that what it reports is what `share browse` does.
    static let router = URLRouter().consulting { url, _ in
        url.scheme?.lowercased() == "file"
            ? .discarded("share browse shows web pages only (http, https), not local files") : nil
    }

    static func run(url string: String, bus: BusAddress) async throws -> ShareExit {
        guard let parsed = URL(string: string), let scheme = parsed.scheme?.lowercased(),
            ["http", "https"].contains(scheme), parsed.host?.isEmpty == false
        else {
            throw ShareFailure("share browse takes an http or https URL, not '\(string)'", exit: .usage)
        }
        let url = URLRouter.normalized(parsed)
        // Browsing works without a broker; only the Action sheet needs it.
        var brokerProblem: String?
        var broker: BrokerProxy?
        do { broker = try BrokerProxy.connect(bus: bus) } catch { brokerProblem = "\(error)" }
        let offering = broker.map { RecordingOffering($0) }
        let configuration = NavigationConfiguration(
            dismissButtonStyle: .done, entersReaderIfAvailable: true, locale: ShareCommand.environmentLocale,
            router: router)
        let terminal = Terminal()
        // Full-screen, what the broker refused shows in the status line; else on stderr.
        let notices = TriggerNotices()
        let interactive = terminal.isInteractive
        let loader = PageLoader(
            onRedirect: TerminalTriggerReporter.redirectHook(broker) { notice in
                if interactive { notices.post(notice) } else { Output.error("share: \(notice)") }
            })
        let session = NavigationSession(
            url: url, configuration: configuration, loader: loader, offering: offering)
        guard interactive else { return try await printOnce(session) }
        var loop = BrowseLoop(
            session: session, terminal: terminal, configuration: configuration, brokerProblem: brokerProblem,
            notices: notices, offering: offering)
        return try await loop.run()
    }

    /// Plain output for pipes and dumb terminals: the state of the loaded page. `Output`
    /// sanitizes each line: the page's title and links never reach the terminal raw.
    private static func printOnce(_ session: NavigationSession) async throws -> ShareExit {
        do { try await session.start() } catch { throw ShareFailure("\(error)", exit: .failed) }
        let state = await BrowseState(session: session)
        if let error = state.loadError {
            throw ShareFailure("could not load the page: \(error)", exit: .failed)
        }
        let indicator = BrowseView.indicator(state.security)
        Output.line("\(indicator.isEmpty ? "" : indicator + " ")\(state.address?.text ?? "")")
        Output.line(state.title ?? "(untitled)")
        for (index, link) in state.links.enumerated() {
            Output.line(
                "\(index + 1). \(link.text.isEmpty ? link.url.absoluteString : link.text) — \(link.url.absoluteString)"
            )
        }
        await session.done()
        return .completed
    }
}
