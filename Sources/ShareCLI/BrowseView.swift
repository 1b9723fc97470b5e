// What `share browse` draws: a pure function from the session's state to screen lines.
import ActivityBrokerClient
import Foundation
import Navigation
import TerminalUI

/// A snapshot of a navigation session, taken after each step, for drawing.
struct BrowseState: Sendable {
    var url: URL?
    var title: String?
    var summary: String?
    var security: SecurityIndicator?
    var address: SiteAddress?
    var links: [PageLink] = []
    var canGoBack = false
    var canGoForward = false
    var loadError: String?
    var reader: String?
    var isLoading = false

    init() {}

    init(session: NavigationSession) async {
        // The initial URL while nothing is loaded (the first load stopped or still running).
        url = await session.currentURL ?? session.initialURL
        title = await session.title
        summary = await session.currentEntry?.page?.metadata.openGraphDescription
        security = await session.security
        address = await session.address
        links = await session.links
        canGoBack = await session.canGoBack
        canGoForward = await session.canGoForward
        loadError = await session.loadError.map { "\($0)" }
        reader = await session.readerView()
    }
}

/// Draws the browsing screen: a top bar (dismiss button in the tint colour, back/forward,
/// the read-only address with its security indicator), the title, the page's numbered
/// links (or the reader view), and a key help line with a status message.
struct BrowseView {
    var size: TerminalSize
    var colors: ColorSupport
    var dismissTitle: String
    var tint: TerminalColor?

    /// The key help line. Links are followed by number and Enter; scrolling stops at both ends.
    static func help(linkCount: Int) -> String {
        let follow = linkCount == 0 ? "" : (linkCount == 1 ? "1" : "1-\(linkCount)") + " Enter follow  "
        return follow + "↑↓ PgUp PgDn g G scroll  b back  f forward  a share  o browser  r reader  q done"
    }

    /// Rows above the page text (bar, title, rule) and below it (rule, help or status).
    static let topRows = 3
    static let bottomRows = 2

    /// Rows the page text has.
    var bodyRoom: Int { max(0, size.rows - Self.topRows - Self.bottomRows) }

    /// The largest useful scroll position: the last line of the text at the bottom.
    func scrollLimit(_ state: BrowseState, readerShown: Bool) -> Int {
        max(0, body(state, readerShown: readerShown).count - bodyRoom)
    }

    /// The indicator text: a lock for secure pages, "Not Secure" for http.
    static func indicator(_ security: SecurityIndicator?) -> String {
        switch security {
        case .secure?: "🔒"
        case .notSecure?: "Not Secure"
        case .local?: "Local File"
        case nil: ""
        }
    }

    /// The whole screen, `size.rows` lines at most, each within the width.
    func lines(_ state: BrowseState, readerShown: Bool, scroll: Int, status: String?, linkInput: String)
        -> [String]
    {
        let width = max(10, size.columns - 1)
        func fit(_ text: String) -> String {
            DisplayWidth.truncate(TextSanitizer.sanitize(text), toWidth: width)
        }
        func styled(_ text: String, _ style: TextStyle) -> String { style.apply(text, colors: colors) }

        var bar = styled("[\(dismissTitle)]", TextStyle([.bold], foreground: tint)) + "  "
        bar +=
            styled("‹", state.canGoBack ? .bold : .dim) + " " + styled("›", state.canGoForward ? .bold : .dim)
            + "  "
        let indicator = Self.indicator(state.security)
        if !indicator.isEmpty {
            bar += styled(indicator, state.security == .notSecure ? TextStyle([.bold]) : .plain) + " "
        }
        if let address = state.address {
            bar +=
                styled(TextSanitizer.sanitize(address.prefix), .dim)
                + styled(TextSanitizer.sanitize(address.registrableDomain), .bold)
                + styled(address.portSuffix, .dim)
        }
        var top: [String] = [bar, styled(fit(state.title ?? state.url?.absoluteString ?? ""), .bold)]
        top.append(styled(String(repeating: "─", count: width), .dim))

        let body = body(state, readerShown: readerShown)
        var bottom = [styled(String(repeating: "─", count: width), .dim)]
        let prompt = linkInput.isEmpty ? "" : "link \(linkInput)_ Enter follows, Esc clears  "
        bottom.append(
            fit(
                prompt
                    + (status
                        ?? (state.isLoading
                            ? "Loading… q or Esc stops" : Self.help(linkCount: state.links.count)))
            ))

        let room = max(0, size.rows - top.count - bottom.count)
        let start = min(max(0, scroll), max(0, body.count - room))
        let visible = Array(body.dropFirst(start).prefix(room))
        return top + visible + Array(repeating: "", count: room - visible.count) + bottom
    }

    /// The page's text lines: the reader text, or the summary and the numbered links.
    func body(_ state: BrowseState, readerShown: Bool) -> [String] {
        let width = max(10, size.columns - 1)
        func fit(_ text: String) -> String {
            DisplayWidth.truncate(TextSanitizer.sanitize(text), toWidth: width)
        }
        func styled(_ text: String, _ style: TextStyle) -> String { style.apply(text, colors: colors) }
        var body: [String] = []
        if state.isLoading {
            body.append("Loading…")
        } else if let error = state.loadError {
            body.append(fit("Could not load the page: \(error)"))
        } else if readerShown, let reader = state.reader {
            for paragraph in reader.components(separatedBy: "\n") {
                body += Self.wrap(TextSanitizer.sanitize(paragraph), width: width)
            }
        } else {
            if let summary = state.summary, !summary.isEmpty {
                body += Self.wrap(TextSanitizer.sanitize(summary), width: width) + [""]
            }
            if state.links.isEmpty {
                body.append(styled("This page has no links.", .dim))
            }
            let numberWidth = String(state.links.count).count
            for (index, link) in state.links.enumerated() {
                let number = String(index + 1)
                let padded = String(repeating: " ", count: numberWidth - number.count) + number
                let text = link.text.isEmpty ? link.url.absoluteString : link.text
                body.append(fit("\(padded). \(text)"))
                body.append(
                    styled(
                        fit(String(repeating: " ", count: numberWidth + 2) + link.url.absoluteString), .dim))
            }
        }
        return body
    }

    /// Greedy word wrap to `width` display columns.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if DisplayWidth.of(candidate) > width, !current.isEmpty {
                lines.append(current)
                current = DisplayWidth.truncate(String(word), toWidth: width)
            } else {
                current = DisplayWidth.truncate(candidate, toWidth: width)
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }
}
