// The org.activitybroker.Session1 interface (API.md §10): a browsing session's path, Close and its unicast signals.
import DBus

/// A browsing session object, exported at the path `Broker1.Browse` returned.
///
/// It is its owner's business, like a job: the path carries 128 random bits and is left out
/// of introspection, `Close` answers the owner alone (`AccessDenied` for anyone else) and
/// every signal is unicast to the owner. It has no properties. Nothing about the browsing
/// reaches the app but these four signals.
public enum Session1: TokenObjectInterface {
    public static let interface: InterfaceName = "org.activitybroker.Session1"

    public static let pathElement = "session"

    /// `Close() → ()`: closes the window; `Finished` follows. Only the connection that called
    /// `Browse` may.
    public static let close = method("Close")

    /// `InitialLoadCompleted(b success)`: the first load ended; sent at most once.
    public static let initialLoadCompleted = signal("InitialLoadCompleted", "b success")
    /// `InitialLoadRedirected(s url)`: the first load ended at another URL; at most once, before
    /// `InitialLoadCompleted`.
    public static let initialLoadRedirected = signal("InitialLoadRedirected", "s url")
    /// `WillOpenInBrowser()`: the user is about to leave for the default browser.
    public static let willOpenInBrowser = signal("WillOpenInBrowser")
    /// `Finished()`: the window is gone (Done, closed, `Close`, or the browser service ended);
    /// sent once, last, then the object is removed.
    public static let finished = signal("Finished")

    /// Every signal, for the exported interface and the client's match.
    public static let signals = [initialLoadCompleted, initialLoadRedirected, willOpenInBrowser, finished]
}
