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

    /// The most links listed (and followable by number). A page with hundreds of thousands
    /// made every key take seconds; past this a line says how many more there are.
    static let maxShownLinks = 5_000

    /// How many of the page's links are listed and can be followed by number.
    static func shownLinkCount(_ state: BrowseState) -> Int { min(state.links.count, maxShownLinks) }

    /// Rows above the page text (bar, title, rule) and below it (rule, help or status).
    static let topRows = 3
    static let bottomRows = 2

    /// Rows the page text has.
    var bodyRoom: Int { max(0, size.rows - Self.topRows - Self.bottomRows) }

    /// Columns a line may take: all but the last, so that no line reaches the right edge
    /// (where a terminal wraps, or scrolls on the last row).
    var width: Int { max(1, size.columns - 1) }

    /// The largest useful scroll position for a body of `bodyCount` lines: the last line at the bottom.
    func scrollLimit(bodyCount: Int) -> Int {
        max(0, bodyCount - bodyRoom)
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

    /// The whole screen for a page whose text is `body` (`body(_:readerShown:)`, which the
    /// caller keeps between keys), `size.rows` lines at most, each within `width`. With
    /// `confirming`, the status line asks whether to open that URL outside the terminal.
    func lines(
        _ state: BrowseState, body: [String], scroll: Int, status: String?, linkInput: String,
        confirming: String? = nil
    ) -> [String] {
        let width = self.width
        func fit(_ text: String) -> String {
            DisplayWidth.truncate(TextSanitizer.sanitize(text), toWidth: width)
        }
        func styled(_ text: String, _ style: TextStyle) -> String { style.apply(text, colors: colors) }

        var top: [String] = [bar(state), styled(fit(state.title ?? state.url?.absoluteString ?? ""), .bold)]
        top.append(styled(String(repeating: "─", count: width), .dim))

        var bottom = [styled(String(repeating: "─", count: width), .dim)]
        if let confirming {
            bottom.append(Self.externalQuestion(confirming, width: width))
        } else {
            let prompt = linkInput.isEmpty ? "" : "link \(linkInput)_ Enter follows, Esc clears  "
            bottom.append(
                fit(
                    prompt
                        + (status
                            ?? (state.isLoading
                                ? "Loading… q or Esc stops"
                                : Self.help(linkCount: Self.shownLinkCount(state))))
                ))
        }

        let room = max(0, size.rows - top.count - bottom.count)
        let start = min(max(0, scroll), max(0, body.count - room))
        let visible = Array(body.dropFirst(start).prefix(room))
        return Array(
            (top + visible + Array(repeating: "", count: room - visible.count) + bottom).prefix(size.rows))
    }

    /// The top bar, fitted to `width`: dismiss button, back and forward, the security
    /// indicator and the address. What identifies the site — the registrable domain and the
    /// port — is never cut: a long host loses the START of its prefix ("…" and the labels
    /// next to the domain), so that `accounts.google.com.<…>.attacker-example.com` cannot
    /// push the real domain off the row. Too narrow even for that, the buttons go first.
    func bar(_ state: BrowseState) -> String {
        let width = self.width
        func styled(_ text: String, _ style: TextStyle) -> String { style.apply(text, colors: colors) }
        let dismiss = "[" + TextSanitizer.sanitize(dismissTitle) + "]"
        let buttonsWidth = DisplayWidth.of(dismiss) + 2 + DisplayWidth.of("‹ ›") + 2
        let buttons =
            styled(dismiss, TextStyle([.bold], foreground: tint)) + "  "
            + styled("‹", state.canGoBack ? .bold : .dim) + " "
            + styled("›", state.canGoForward ? .bold : .dim)
            + "  "
        let indicator = Self.indicator(state.security)
        let indicatorWidth = indicator.isEmpty ? 0 : DisplayWidth.of(indicator) + 1
        let indicatorText =
            indicator.isEmpty
            ? "" : styled(indicator, state.security == .notSecure ? TextStyle([.bold]) : .plain) + " "
        guard let address = state.address else {
            return buttonsWidth + indicatorWidth <= width ? buttons + indicatorText : indicatorText
        }
        let prefix = TextSanitizer.sanitize(address.prefix)
        var domain = TextSanitizer.sanitize(address.registrableDomain)
        let port = TextSanitizer.sanitize(address.portSuffix)
        let siteWidth = DisplayWidth.of(domain) + DisplayWidth.of(port)
        // The least the prefix may show: "…" when there is one.
        let prefixMinimum = prefix.isEmpty ? 0 : 1
        var lead = buttons + indicatorText
        var room = width - buttonsWidth - indicatorWidth - siteWidth
        if room < prefixMinimum {
            lead = indicatorText
            room = width - indicatorWidth - siteWidth
        }
        if room < prefixMinimum {
            // Not even the domain fits: it is cut at its end with "…", never wrapped.
            domain = DisplayWidth.truncate(
                domain, toWidth: max(1, width - indicatorWidth - DisplayWidth.of(port)))
            room = 0
        }
        let shownPrefix = DisplayWidth.truncateLeading(prefix, toWidth: max(0, room))
        return lead + styled(shownPrefix, .dim) + styled(domain, .bold) + styled(port, .dim)
    }

    /// The question before a link leaves the terminal, fitted to `width`: the hint is always
    /// there, and a long URL loses its middle, keeping the scheme and host (where it goes)
    /// and the end of the rest.
    static func externalQuestion(_ target: String, width: Int) -> String {
        let target = TextSanitizer.sanitize(target)
        let forms = [
            (
                "Open ",
                " outside the terminal, with the system's handler? y opens it, any other key does not."
            ),
            ("Open ", " outside the terminal? y opens it, any other key does not."),
            ("Open ", "? y opens it, other keys do not."),
        ]
        for (index, (lead, hint)) in forms.enumerated() {
            let room = width - DisplayWidth.of(lead) - DisplayWidth.of(hint)
            if DisplayWidth.of(target) <= room { return lead + target + hint }
            // A longer hint is worth keeping while the origin and a little of the rest fit.
            if index == forms.count - 1 || room >= DisplayWidth.of(origin(of: target)) + 8 {
                let shown = elidingMiddle(target, toWidth: max(1, room))
                return DisplayWidth.truncate(lead + shown + hint, toWidth: width)
            }
        }
        return DisplayWidth.truncate(target, toWidth: width)
    }

    /// `scheme://host[:port]` of a URL string, or "" when it has none.
    private static func origin(of url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return "" }
        let afterScheme = url[schemeEnd.upperBound...]
        let hostEnd = afterScheme.firstIndex { "/?#".contains($0) } ?? url.endIndex
        return String(url[..<hostEnd])
    }

    /// `url` cut to `width` columns in the middle: its origin first, "…", then its end.
    static func elidingMiddle(_ url: String, toWidth width: Int) -> String {
        if DisplayWidth.of(url) <= width { return url }
        let origin = origin(of: url)
        let originWidth = DisplayWidth.of(origin)
        guard !origin.isEmpty, originWidth + 1 < width else {
            return DisplayWidth.truncate(url, toWidth: width)
        }
        let rest = String(url.dropFirst(origin.count))
        return origin + DisplayWidth.truncateLeading(rest, toWidth: width - originWidth)
    }

    /// The page's text lines: the reader text, or the summary and the numbered links (the
    /// first `maxShownLinks`, then how many more there are). Wraps the whole page: the loop
    /// keeps the result until the state, the reader toggle or the width change.
    func body(_ state: BrowseState, readerShown: Bool) -> [String] {
        let width = self.width
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
            let shown = Self.shownLinkCount(state)
            let numberWidth = String(shown).count
            for (index, link) in state.links.prefix(shown).enumerated() {
                let number = String(index + 1)
                let padded = String(repeating: " ", count: numberWidth - number.count) + number
                let text = link.text.isEmpty ? link.url.absoluteString : link.text
                body.append(fit("\(padded). \(text)"))
                body.append(
                    styled(
                        fit(String(repeating: " ", count: numberWidth + 2) + link.url.absoluteString), .dim))
            }
            if state.links.count > shown {
                body.append(styled(fit("… \(state.links.count - shown) more links not listed"), .dim))
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
