// BrowsingSessionDelegate: what an app hears of its browser window, after SFSafariViewControllerDelegate.
import Foundation

/// The events of a `BrowsingSession` (the broker's `Session1` signals): all an app learns of
/// the browsing. Every method has a default that does nothing.
///
/// Called on the connection's loop, in the order the broker sent them: be quick, and do not
/// wait there for another call on the same connection.
public protocol BrowsingSessionDelegate: AnyObject, Sendable {
    /// The first load ended; at most once.
    func browsingSession(_ session: BrowsingSession, didCompleteInitialLoad success: Bool)
    /// The first load ended at `url`; at most once, before `didCompleteInitialLoad`.
    func browsingSession(_ session: BrowsingSession, initialLoadDidRedirectTo url: URL)
    /// The user is about to continue in the default browser.
    func browsingSessionWillOpenInBrowser(_ session: BrowsingSession)
    /// The window is gone; called exactly once, last.
    func browsingSessionDidFinish(_ session: BrowsingSession)
}

extension BrowsingSessionDelegate {
    public func browsingSession(_ session: BrowsingSession, didCompleteInitialLoad success: Bool) {}
    public func browsingSession(_ session: BrowsingSession, initialLoadDidRedirectTo url: URL) {}
    public func browsingSessionWillOpenInBrowser(_ session: BrowsingSession) {}
    public func browsingSessionDidFinish(_ session: BrowsingSession) {}
}
