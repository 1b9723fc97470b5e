// The first load of a window: whether and where it ended, reported once to the broker.
import Foundation
import Navigation

/// Follows the first load of a window and says which events end it (API.md §10:
/// `InitialLoadRedirected` for the first load only, then `InitialLoadCompleted`).
///
/// WebKit reports a load as started, redirected, committed and finished, and a failure before
/// the finish; a certificate error may end the load without a finish. Whatever comes first
/// of a failure and a finish ends the first load; later loads change nothing.
public struct InitialLoad: Sendable {
    public let requested: URL
    public private(set) var isOver = false
    private var redirected = false

    public init(requested: URL) {
        self.requested = requested
    }

    /// WebKit followed a redirect (`WEBKIT_LOAD_REDIRECTED`).
    public mutating func redirect() {
        if !isOver { redirected = true }
    }

    /// The load finished at `finalURL` (`WEBKIT_LOAD_FINISHED`, after no failure).
    public mutating func finish(at finalURL: String?) -> [BrowserEvent] {
        guard !isOver else { return [] }
        isOver = true
        var events: [BrowserEvent] = []
        if let finalURL, redirected || !Self.same(finalURL, requested) {
            events.append(.initialLoadRedirected(url: finalURL))
        }
        events.append(.initialLoadCompleted(success: true))
        return events
    }

    /// The load failed (network error, certificate error, HTTP-level failure WebKit reports).
    public mutating func fail() -> [BrowserEvent] {
        guard !isOver else { return [] }
        isOver = true
        return [.initialLoadCompleted(success: false)]
    }

    /// Whether `text` is `url` up to what WebKit adds (a `/` path for a bare origin) and the
    /// case of the scheme and host: neither is a redirect.
    static func same(_ text: String, _ url: URL) -> Bool {
        guard let other = URL(string: text) else { return false }
        func key(_ url: URL) -> String {
            let normalized = URLRouter.normalized(url)
            var string = normalized.absoluteString
            if normalized.path.isEmpty, normalized.query == nil, normalized.fragment == nil { string += "/" }
            return string
        }
        return key(other) == key(url)
    }
}
