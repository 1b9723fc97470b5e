// CustomActivity: an activity the app serves itself, shown in the Action sheet.

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
    /// The row it goes in; `action` unless said otherwise.
    public var category: OfferedActivity.Category
    /// Runs the activity on the items; called on the caller's task, not on a loop of ours.
    public var handler: @Sendable (SharedItems) async -> ActivityOutcome

    /// Creates a custom activity.
    public init(
        id: String,
        title: String,
        icon: String = "applications-other",
        category: OfferedActivity.Category = .action,
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
