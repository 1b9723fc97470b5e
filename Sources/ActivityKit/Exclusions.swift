// The `exclude` option of ListActivities: activity ids and whole categories a caller does not want offered.

/// Activity ids and `category:share` / `category:action` entries, parsed once per call.
public struct Exclusions: Sendable {
    @usableFromInline var ids: Set<String> = []
    @usableFromInline var categories: Set<ActivityCategory> = []

    /// Parses the entries. Throws `invalidArgument` for a `category:` entry naming no category.
    public init(_ entries: [String]) throws(ActivityError) {
        for entry in entries {
            if entry.hasPrefix("category:") {
                let name = String(entry.dropFirst("category:".count))
                guard let category = ActivityCategory(rawValue: name) else {
                    throw .invalidArgument(
                        "ListActivities: exclude entry '\(entry)' names no category (use category:share or category:action)")
                }
                categories.insert(category)
            } else {
                ids.insert(entry)
            }
        }
    }

    /// Whether the activity `id` of `category` is excluded.
    @inlinable
    public func excludes(id: ActivityID, category: ActivityCategory) -> Bool {
        (!ids.isEmpty && ids.contains(id.rawValue)) || (!categories.isEmpty && categories.contains(category))
    }
}
