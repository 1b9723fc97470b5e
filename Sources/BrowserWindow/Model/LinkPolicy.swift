// Where a navigation the page asks for goes: this window, the system opener, or nowhere.
import Foundation
import Navigation

/// The decision for one navigation action WebKit asks about (`decide-policy`).
public enum LinkDecision: Sendable, Equatable {
    /// Let WebKit go on.
    case proceed
    /// Load `url` in this window instead (a link that would open a new window).
    case loadHere(URL)
    /// Stop it and hand `url` to the system opener (`mailto:`, `tel:`, other apps' schemes).
    case openExternally(URL)
    /// Stop it; `reason` is logged (it names the URL only as `LoggedURL`).
    case discard(reason: String)
    /// Stop a launch of another app's `scheme` that no click asked for (a frame's `src`, a
    /// redirect, a timer): dropped, with at most a debug line naming the scheme, since a page
    /// can ask for these without limit.
    case dropLaunch(scheme: String)
}

/// Routes the page's navigations like `share open` (Navigation's `URLRouter`): http(s) stays
/// in the window, other schemes go to the system, unsafe ones are dropped. A window never
/// opens another: what would open a new window opens in this one.
public struct LinkPolicy: Sendable {
    public let router: URLRouter

    public init(router: URLRouter = URLRouter()) {
        self.router = router
    }

    /// - `source`: the page it came from.
    /// - `newWindow`: a `target=_blank` link or `window.open`.
    /// - `userInitiated`: a link click or a user gesture. Discarded schemes (`data:`, `about:`,
    ///   `blob:`…) are dropped only then: a page's own frames load them without a gesture, and
    ///   WebKit itself refuses top-level `data:` navigations by script.
    /// - `userGesture`: WebKit says a user's input is being handled (`is_user_gesture`), which a
    ///   script's synthetic click is not; `userInitiated` when not given.
    /// - `redirect`: the server redirected a load here.
    ///
    /// Another app is launched only for a user gesture that is not a redirect: a page cannot
    /// launch handler apps by itself (a hidden `<iframe src="steam://…">`, a 302 to `myapp:`, a
    /// timer setting `location`).
    public func decide(
        url: URL?, source: URL?, newWindow: Bool, userInitiated: Bool, userGesture: Bool? = nil,
        redirect: Bool = false
    ) -> LinkDecision {
        guard let url else { return .discard(reason: "the navigation has no URL") }
        let outcome = router.route(url, from: source)
        switch outcome.action {
        case .handled:
            if url.scheme?.lowercased() == "file", source != nil {
                return .discard(reason: "a web page may not open local files")
            }
            return newWindow ? .loadHere(url) : .proceed
        case .systemAction(let rewritten):
            guard userGesture ?? userInitiated, !redirect else {
                return .dropLaunch(scheme: url.scheme?.lowercased() ?? "")
            }
            return .openExternally(rewritten ?? url)
        case .discarded:
            let scheme = url.scheme?.lowercased() ?? ""
            if !newWindow, !userInitiated, !URLRouter.unsafeSchemes.contains(scheme) || scheme == "data" {
                return .proceed
            }
            // Not the router's reason: it quotes the whole URL, and the log gets scheme and site.
            return .discard(reason: "\(LoggedURL(url)) is not a URL a page may open")
        }
    }
}
