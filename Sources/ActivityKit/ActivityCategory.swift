// ActivityCategory: share (send somewhere) or action (do something), API.md §2.

/// The category of an activity; `share` activities are listed before `action` ones (API.md §5).
public enum ActivityCategory: String, Sendable, CaseIterable, Hashable {
    /// Send to someone or somewhere: messaging, mail, social.
    case share
    /// Do something with it: copy, open in browser, reading list.
    case action
}
