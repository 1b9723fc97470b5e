// What `share browse` draws, at narrow widths and for huge pages: the address bar, the rows, the questions.
import Foundation
import Navigation
import Testing

@testable import ShareCLI
@testable import TerminalUI

@Suite struct BrowseViewTests {
    static let phishingHost = "accounts.google.com.verify-7f3a.session-check.attacker-example.com"

    static func view(columns: Int, rows: Int = 12) -> BrowseView {
        BrowseView(
            size: TerminalSize(columns: columns, rows: rows), colors: .none, dismissTitle: "Done", tint: nil)
    }

    /// `line` without its SGR sequences: what the terminal shows.
    static func plain(_ line: String) -> String {
        line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    static func state(_ url: String, title: String = "Sign in – Google Accounts", links: Int = 0)
        -> BrowseState
    {
        var state = BrowseState()
        let url = URL(string: url)!
        state.url = url
        state.title = title
        state.security = .secure
        state.address = SiteAddress(url: url)
        state.links = (0..<links).map {
            PageLink(url: URL(string: "https://example.org/\($0)")!, text: "Link \($0)")
        }
        return state
    }

    /// Regression (share browse review, item 1): the bar was never clipped, so on a narrow
    /// terminal a long host wrapped, the registrable domain landed on row 1 and the title drew
    /// over it: the address bar showed `accounts.google.com…` and nothing else of the site.
    @Test(arguments: [30, 40, 60, 80, 100, 200])
    func aLongHostCannotHideTheRegistrableDomain(columns: Int) {
        let view = Self.view(columns: columns)
        let state = Self.state("https://\(Self.phishingHost):8443/login")
        let bar = Self.plain(view.bar(state))
        #expect(DisplayWidth.of(bar) <= view.width, "\(bar)")
        #expect(bar.hasSuffix("attacker-example.com:8443"), "\(bar)")
        if DisplayWidth.of(Self.phishingHost) + 30 > view.width {
            #expect(bar.contains("…"), "the prefix loses its start, with an ellipsis: \(bar)")
            #expect(!bar.contains("accounts.google"), "\(bar)")
        }
        let lines = view.lines(
            state, body: view.body(state, readerShown: false), scroll: 0, status: nil, linkInput: "")
        #expect(lines.count <= 12)
        for line in lines { #expect(DisplayWidth.of(Self.plain(line)) <= view.width, "\(line)") }
    }

    @Test func tooNarrowForTheButtonsTheDomainStillShows() {
        let view = Self.view(columns: 26)
        let bar = Self.plain(view.bar(Self.state("https://\(Self.phishingHost)/")))
        #expect(bar == "🔒 ….attacker-example.com", "\(bar)")
    }

    @Test func aHostThatFitsIsShownWhole() {
        let view = Self.view(columns: 100)
        #expect(
            Self.plain(view.bar(Self.state("https://www.example.org/"))) == "[Done]  ‹ ›  🔒 www.example.org")
    }

    /// Regression (share browse review, item 9): the question was clipped to the status line,
    /// so a long URL lost its tail and the "y opens it" hint with it.
    @Test(arguments: [70, 80, 120])
    func theQuestionBeforeLeavingTheTerminalKeepsItsHintAndTheHost(columns: Int) {
        let target = "ssh://files.example.net/" + String(repeating: "very/long/path/", count: 20) + "end"
        let question = BrowseView.externalQuestion(target, width: columns - 1)
        #expect(DisplayWidth.of(question) <= columns - 1, "\(question)")
        #expect(question.contains("ssh://files.example.net"), "\(question)")
        #expect(question.contains("y opens it"), "\(question)")
        #expect(question.contains("…"), "\(question)")
        #expect(
            BrowseView.externalQuestion("mailto:a@example.org", width: 120).contains("mailto:a@example.org"))
        // Narrower than the host and the hint together: the hint still shows.
        #expect(BrowseView.externalQuestion(target, width: 45).hasSuffix("? y opens it, other keys do not."))
    }

    /// Regression (share browse review, item 4): every link of a huge page was formatted on
    /// every key. At most `maxShownLinks` are listed, then how many more there are.
    @Test func linksAreListedUpToTheCap() {
        let view = Self.view(columns: 80)
        let state = Self.state("https://example.org/", links: BrowseView.maxShownLinks + 7)
        let body = view.body(state, readerShown: false)
        #expect(body.count == BrowseView.maxShownLinks * 2 + 1)
        #expect(body.last.map(Self.plain) == "… 7 more links not listed")
        #expect(BrowseView.shownLinkCount(state) == BrowseView.maxShownLinks)
        #expect(BrowseView.help(linkCount: BrowseView.shownLinkCount(state)).hasPrefix("1-5000 Enter follow"))
    }
}
