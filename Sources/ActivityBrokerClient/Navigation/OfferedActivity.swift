// OfferedActivity: one entry of the Action sheet, as the broker (or the app) offers it.

import Foundation

/// One activity the Action sheet can show: an activity record of API.md §2, or one of the
/// app's own `CustomActivity` values (origin `app`).
public struct OfferedActivity: Hashable, Sendable {
    /// The row of the Action sheet an activity belongs to (API.md §2 `category`).
    public enum Category: String, Hashable, Sendable, CaseIterable {
        /// Send to someone or somewhere: messaging, mail, social.
        case share
        /// Do something with it: copy, open in browser, reading list.
        case action
    }

    /// The origin given to the app's own in-process activities; never sent by the broker.
    public static let appOrigin = "app"

    /// Reverse-DNS id, unique in the broker's registry.
    public var id: String
    /// Display name, localized for the requested locale.
    public var name: String
    /// A freedesktop icon name or an absolute path.
    public var icon: String
    /// Which row of the sheet it goes in.
    public var category: Category
    /// `dbus`, `user`, `system`, `builtin`, `desktop` (API.md §2), or `app` for a `CustomActivity`.
    public var origin: String

    /// Creates an activity record.
    public init(id: String, name: String, icon: String, category: Category, origin: String) {
        self.id = id
        self.name = name
        self.icon = icon
        self.category = category
        self.origin = origin
    }

    /// Whether the app serves this activity in-process rather than the broker.
    public var isCustom: Bool { origin == Self.appOrigin }
}
