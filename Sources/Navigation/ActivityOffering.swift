// ActivityOffering: what a navigation session needs from the broker; BrokerProxy conforms.

import ActivityBrokerClient

/// What a navigation session needs from the broker. `BrokerProxy` conforms (below); tests
/// may pass an in-memory implementation.
///
/// Kept this small so that the navigation code does not depend on D-Bus. The names differ
/// from `BrokerProxy`'s own methods so that the conformance adds no overload to them.
public protocol ActivityOffering: Sendable {
    /// The activities that apply to `items`, in presentation order (API.md §3 `ListActivities`).
    ///
    /// - Parameters:
    ///   - excluding: activity ids, or `category:share` / `category:action`.
    ///   - locale: e.g. `de_DE`; `nil` for the broker's own.
    /// - Throws: whatever the transport or the broker reports.
    func offeredActivities(for items: SharedItems, excluding: [String], locale: String?) async throws
        -> [OfferedActivity]

    /// Performs activity `id` on `items` and waits until its job ends (API.md §3 `Perform`, §6).
    ///
    /// - Throws: the broker's errors raised before a job exists (`NotFound`, `NotApplicable`, …).
    func performActivity(_ id: String, items: SharedItems) async throws -> ActivityOutcome
}

extension BrokerProxy: ActivityOffering {
    /// `ListActivities` with the exclusions and locale; throws `BrokerError`.
    public func offeredActivities(for items: SharedItems, excluding: [String], locale: String?) async throws
        -> [OfferedActivity]
    {
        try await activities(for: items, locale: locale, exclude: excluding)
    }

    /// `Perform`, waiting for the job's `Finished`; throws `BrokerError`.
    public func performActivity(_ id: String, items: SharedItems) async throws -> ActivityOutcome {
        try await perform(id, items: items)
    }
}
