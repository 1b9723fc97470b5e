// NavigationSessionDelegate: the callbacks of a navigation session, after SFSafariViewControllerDelegate.

import ActivityBrokerClient
import Foundation

/// Callbacks of a `NavigationSession`, after `SFSafariViewControllerDelegate`. Every method
/// has a default that does nothing (or changes nothing).
///
/// The session calls them synchronously from its own actor, so they must be quick and must
/// not call back into the session synchronously. The session holds its delegate weakly.
public protocol NavigationSessionDelegate: AnyObject, Sendable {
    /// The initial load ended; called exactly once per session, even when it failed.
    func navigationSession(_ session: NavigationSession, didCompleteInitialLoad success: Bool)
    /// The initial load was redirected; called at most once, with the final URL of the chain,
    /// before `didCompleteInitialLoad`. Later navigations do not call it.
    func navigationSession(_ session: NavigationSession, initialLoadDidRedirectTo url: URL)
    /// The items the Action sheet shares for the page; `nil` keeps the default (the
    /// page's URL — its canonical URL when on the same site — and its title).
    func navigationSession(_ session: NavigationSession, activityItemsFor url: URL, title: String?)
        -> SharedItems?
    /// Activity ids (or `category:…`) to leave out of the sheet for this page, on top of the
    /// configuration's.
    func navigationSession(_ session: NavigationSession, excludedActivitiesFor url: URL, title: String?)
        -> [String]
    /// The session is about to hand the page to the system browser.
    func navigationSessionWillOpenInBrowser(_ session: NavigationSession)
    /// The session ended (Done, or Open in Browser); called exactly once.
    func navigationSessionDidFinish(_ session: NavigationSession)
}

extension NavigationSessionDelegate {
    public func navigationSession(_ session: NavigationSession, didCompleteInitialLoad success: Bool) {}
    public func navigationSession(_ session: NavigationSession, initialLoadDidRedirectTo url: URL) {}
    public func navigationSession(_ session: NavigationSession, activityItemsFor url: URL, title: String?)
        -> SharedItems?
    { nil }
    public func navigationSession(
        _ session: NavigationSession, excludedActivitiesFor url: URL, title: String?
    )
        -> [String]
    { [] }
    public func navigationSessionWillOpenInBrowser(_ session: NavigationSession) {}
    public func navigationSessionDidFinish(_ session: NavigationSession) {}
}
