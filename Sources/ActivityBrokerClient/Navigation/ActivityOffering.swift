// ActivityOffering: what a navigation session needs from the broker.

/// What a navigation session needs from the broker; the client library's broker proxy conforms.
///
/// Kept this small so that the navigation code does not depend on D-Bus: the proxy maps
/// `ListActivities` and `Perform` (then waiting for the job's `Finished`) onto it.
public protocol ActivityOffering: Sendable {
    /// The activities that apply to `items`, in presentation order (API.md §3 `ListActivities`).
    ///
    /// - Parameters:
    ///   - excluding: activity ids, or `category:share` / `category:action`.
    ///   - locale: e.g. `de_DE`; `nil` for the broker's own.
    /// - Throws: whatever the transport or the broker reports.
    func activities(for items: SharedItems, excluding: [String], locale: String?) async throws
        -> [OfferedActivity]

    /// Performs activity `id` on `items` and waits until its job ends (API.md §3 `Perform`, §6).
    ///
    /// - Throws: the broker's errors raised before a job exists (`NotFound`, `NotApplicable`, …).
    func perform(_ id: String, items: SharedItems) async throws -> ActivityOutcome
}
