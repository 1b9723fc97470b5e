// Recorders: fakes at the outer edge (broker, opener, delegate) that record every call.

import ActivityBrokerClient
import Foundation
import Navigation

/// An in-memory broker that offers fixed activities and records what it was asked.
actor RecordingOffering: ActivityOffering {
    struct ListCall: Sendable {
        var items: SharedItems
        var excluding: [String]
        var locale: String?
    }

    private let offers: [OfferedActivity]
    private let failure: (any Error)?
    private(set) var listCalls: [ListCall] = []
    private(set) var performCalls: [(id: String, items: SharedItems)] = []

    init(offers: [OfferedActivity], failing failure: (any Error)? = nil) {
        self.offers = offers
        self.failure = failure
    }

    func offeredActivities(for items: SharedItems, excluding: [String], locale: String?) async throws
        -> [OfferedActivity]
    {
        listCalls.append(ListCall(items: items, excluding: excluding, locale: locale))
        if let failure { throw failure }
        // Like the broker: exclusions by id or category are applied here too.
        return offers.filter { offer in
            !excluding.contains(offer.id) && !excluding.contains("category:" + offer.category)
        }
    }

    func performActivity(_ id: String, items: SharedItems) async throws -> ActivityOutcome {
        performCalls.append((id, items))
        if let failure { throw failure }
        return ActivityOutcome(state: .completed, results: ["performed": .string(id)])
    }
}

/// A system opener that records the URLs it was given.
actor RecordingOpener: URLOpening {
    private(set) var opened: [URL] = []
    private let failure: (any Error)?

    init(failing failure: (any Error)? = nil) {
        self.failure = failure
    }

    func open(_ url: URL) async throws {
        opened.append(url)
        if let failure { throw failure }
    }
}

/// A delegate that records each callback in order.
///
/// `@unchecked Sendable`: `events` and the overrides are only touched with `lock` held.
final class RecordingDelegate: NavigationSessionDelegate, @unchecked Sendable {
    enum Event: Hashable {
        case initialLoad(success: Bool)
        case redirect(URL)
        case itemsAsked(URL, String?)
        case exclusionsAsked(URL)
        case willOpenInBrowser
        case didFinish
    }

    private let lock = NSLock()
    private var recorded: [Event] = []
    private let itemsOverride: SharedItems?
    private let exclusions: [String]

    init(items: SharedItems? = nil, exclusions: [String] = []) {
        self.itemsOverride = items
        self.exclusions = exclusions
    }

    var events: [Event] { lock.withLock { recorded } }

    func count(_ event: Event) -> Int { events.filter { $0 == event }.count }

    private func record(_ event: Event) { lock.withLock { recorded.append(event) } }

    func navigationSession(_ session: NavigationSession, didCompleteInitialLoad success: Bool) {
        record(.initialLoad(success: success))
    }
    func navigationSession(_ session: NavigationSession, initialLoadDidRedirectTo url: URL) {
        record(.redirect(url))
    }
    func navigationSession(_ session: NavigationSession, activityItemsFor url: URL, title: String?)
        -> SharedItems?
    {
        record(.itemsAsked(url, title))
        return itemsOverride
    }
    func navigationSession(_ session: NavigationSession, excludedActivitiesFor url: URL, title: String?)
        -> [String]
    {
        record(.exclusionsAsked(url))
        return exclusions
    }
    func navigationSessionWillOpenInBrowser(_ session: NavigationSession) { record(.willOpenInBrowser) }
    func navigationSessionDidFinish(_ session: NavigationSession) { record(.didFinish) }
}
