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

    /// The signal's `name`.
    public var name: String {
        switch self {
        case .initialLoadCompleted: Browser1.EventName.initialLoadCompleted
        case .initialLoadRedirected: Browser1.EventName.initialLoadRedirected
        case .willOpenInBrowser: Browser1.EventName.willOpenInBrowser
        case .finished: Browser1.EventName.finished
        case .clickActivated: Browser1.EventName.clickActivated
        }
    }

    /// The signal's `details`.
    public var details: [String: Value] {
        switch self {
        case .initialLoadCompleted(let success): [Browser1.DetailKey.success: .boolean(success)]
        case .initialLoadRedirected(let url): [Browser1.DetailKey.url: .string(url)]
        case .willOpenInBrowser, .finished: [:]
        case .clickActivated(let activated): [Browser1.DetailKey.activated: .boolean(activated)]
        }
    }
}
