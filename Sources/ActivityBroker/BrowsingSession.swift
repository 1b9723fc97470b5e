// One browsing session (Browse): its owner, its window's handle, its Session1 object and what was already said.
import ActivityBrokerInterface
import ActivityKit
import DBus
import Dispatch
import Glibc

/// A browsing session. Loop-confined like the `BrowsingSessions` that owns it.
final class BrowsingSession: @unchecked Sendable {
    /// For log lines only; the path carries a random token instead.
    let number: UInt64
    /// The `Session1` object, known to the owner alone.
    let path: ObjectPath
    /// What the browser service knows the window by (`Open`, `Close`, `Event`).
    let handle: ObjectPath
    /// The unique name that called `Browse`: the only one told anything, the only one that
    /// may `Close`, and the one on whose behalf the window's Action sheet shares.
    let owner: String
    /// `exclude` of `Browse`, applied to the Action sheet.
    let exclude: [String]
    /// The click that led here (Private Click Measurement, API.md §11): kept only once the
    /// gesture is proven (`ClickActivated(true)` in time), then cleared; cleared also when
    /// the proof fails or comes too late.
    var attribution: EventAttribution?
    /// Fires when the gesture window (`BrokerConfiguration.gestureWindow`) has passed since
    /// the window opened: an attribution still unproven then is discarded.
    var attributionDeadline: DispatchWorkItem?
    /// The browser service's unique name serving the window; nil while it is being started
    /// (the first owner of the name afterwards adopts it).
    var browser: String?
    /// `InitialLoadCompleted` was passed on: later first-load events are not.
    var initialLoadCompleted = false
    var initialLoadRedirected = false
    /// Ends with the session: the owner's disconnect watch.
    var subscriptions: [Subscription] = []
    /// `Open` while it is on its way.
    var opening: PendingCall?

    init(
        number: UInt64, token: String, handle: ObjectPath, owner: String, exclude: [String],
        attribution: EventAttribution?, browser: String?
    ) {
        self.number = number
        self.path = Session1.path(token: token)
        self.handle = handle
        self.owner = owner
        self.exclude = exclude
        self.attribution = attribution
        self.browser = browser
    }
}
