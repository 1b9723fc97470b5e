// CustomActivity: an activity the app serves itself, shown in the Action sheet.

import ActivityBrokerClient

/// An activity the app serves in-process, like `SFSafariViewController`'s application
/// activities: it appears in the Action sheet next to the broker's and runs its handler
/// without going through the broker.
public struct CustomActivity: Sendable {
    /// What the Action sheet shows for it: id, title (`name`), icon and category, with origin
    /// `app` (constant, so that `isCustom` holds). The same record type as the broker's offers,
    /// so the sheet merges the two lists without translating either.
    public let offered: OfferedActivity
    /// Runs the activity on the items; called on the caller's task, not on a loop of ours.
    public var handler: @Sendable (SharedItems) async -> ActivityOutcome

    /// Creates a custom activity, in the action row unless `category` is `share`. `id` is
    /// reverse-DNS style; an id equal to a broker activity's hides the broker's. `icon` is a
    /// freedesktop icon name or an absolute path.
    public init(
        id: String,
        title: String,
        icon: String = "applications-other",
        category: String = "action",
        handler: @escaping @Sendable (SharedItems) async -> ActivityOutcome
    ) {
        offered = OfferedActivity(
            id: id, name: title, icon: icon, category: category, origin: OfferedActivity.appOrigin)
        self.handler = handler
    }

    /// The id, which the sheet answers with when the user picks it.
    public var id: String { offered.id }
}

extension OfferedActivity {
    /// The origin of the app's own in-process activities in a sheet; the broker never sends it.
    public static let appOrigin = "app"

    /// Whether the app serves this activity in-process rather than the broker.
    public var isCustom: Bool { origin == Self.appOrigin }
}
