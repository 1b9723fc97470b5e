// One activity the sheet offers, reduced to what the sheet draws.

/// An offered activity as the broker sent it in `Show` (API.md §2's record): the broker has
/// already localized the name and ranked the list.
public struct SheetActivity: Hashable, Sendable {
    /// Where the sheet draws it: the Share row (messaging, mail, social) or the Actions list.
    public enum Category: Hashable, Sendable {
        case share, action
    }

    public let id: String
    public let name: String
    /// A freedesktop icon name or an absolute path; empty when the record had none.
    public let icon: String
    public let category: Category

    public init(id: String, name: String, icon: String = "", category: Category) {
        self.id = id
        self.name = name
        self.icon = icon
        self.category = category
    }
}
