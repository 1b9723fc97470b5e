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
    /// Stop it; `reason` is logged.
    case discard(reason: String)
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
    public func decide(url: URL?, source: URL?, newWindow: Bool, userInitiated: Bool) -> LinkDecision {
        guard let url else { return .discard(reason: "the navigation has no URL") }
        let outcome = router.route(url, from: source)
        switch outcome.action {
        case .handled:
            if url.scheme?.lowercased() == "file", source != nil {
                return .discard(reason: "a web page may not open local files")
            }
            return newWindow ? .loadHere(url) : .proceed
        case .systemAction(let rewritten):
            return .openExternally(rewritten ?? url)
        case .discarded(let reason):
            let scheme = url.scheme?.lowercased() ?? ""
            if !newWindow, !userInitiated, !URLRouter.unsafeSchemes.contains(scheme) || scheme == "data" {
                return .proceed
            }
            return .discard(reason: reason)
        }
    }
}
