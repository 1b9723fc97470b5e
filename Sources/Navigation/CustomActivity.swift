// CustomActivity: an activity the app serves itself, shown in the Action sheet.

import ActivityBrokerClient

/// An activity the app serves in-process, like `SFSafariViewController`'s application
/// activities: it appears in the Action sheet next to the broker's and runs its handler
/// without going through the broker.
public struct CustomActivity: Sendable {
    /// The id, reverse-DNS style; an id equal to a broker activity's hides the broker's.
    public var id: String
    /// The display title.
    public var title: String
    /// A freedesktop icon name or an absolute path.
    public var icon: String
    /// `share` or `action` (the row it goes in); anything but `share` goes in the action row.
    public var category: String
    /// Runs the activity on the items; called on the caller's task, not on a loop of ours.
    public var handler: @Sendable (SharedItems) async -> ActivityOutcome

    /// Creates a custom activity, in the action row unless `category` is `share`.
    public init(
        id: String,
        title: String,
        icon: String = "applications-other",
        category: String = "action",
        handler: @escaping @Sendable (SharedItems) async -> ActivityOutcome
    ) {
        self.id = id
        self.title = title
        self.icon = icon
        self.category = category
        self.handler = handler
    }

    /// The record the Action sheet shows for it (origin `app`).
    public var offered: OfferedActivity {
        OfferedActivity(
            id: id, name: title, icon: icon, category: category, origin: OfferedActivity.appOrigin)
    }
}

extension OfferedActivity {
    /// The origin of the app's own in-process activities in a sheet; the broker never sends it.
    public static let appOrigin = "app"

    /// Whether the app serves this activity in-process rather than the broker.
    public var isCustom: Bool { origin == Self.appOrigin }
}
