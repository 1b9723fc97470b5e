// What a window tells the broker: the Event signal's name and details.
import ActivityBrokerInterface
import DBus

/// One `Event(o handle, s name, a{sv} details)` of API.md §10.
public enum BrowserEvent: Sendable, Equatable {
    case initialLoadCompleted(success: Bool)
    case initialLoadRedirected(url: String)
    case willOpenInBrowser
    case finished
    case clickActivated(Bool)
    /// A redirect to a trigger URL (§11): `url`, its target, and `page`, the main frame's URL.
    case attributionTrigger(url: String, page: String)

    /// The signal's `name`.
    public var name: String {
        switch self {
        case .initialLoadCompleted: Browser1.EventName.initialLoadCompleted
        case .initialLoadRedirected: Browser1.EventName.initialLoadRedirected
        case .willOpenInBrowser: Browser1.EventName.willOpenInBrowser
        case .finished: Browser1.EventName.finished
        case .clickActivated: Browser1.EventName.clickActivated
        case .attributionTrigger: Browser1.EventName.attributionTrigger
        }
    }

    /// The signal's `details`.
    public var details: [String: Value] {
        switch self {
        case .initialLoadCompleted(let success): [Browser1.DetailKey.success: .boolean(success)]
        case .initialLoadRedirected(let url): [Browser1.DetailKey.url: .string(url)]
        case .willOpenInBrowser, .finished: [:]
        case .clickActivated(let activated): [Browser1.DetailKey.activated: .boolean(activated)]
        case .attributionTrigger(let url, let page):
            [Browser1.DetailKey.url: .string(url), Browser1.DetailKey.page: .string(page)]
        }
    }
}
