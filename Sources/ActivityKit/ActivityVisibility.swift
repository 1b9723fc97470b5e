// Who an activity is offered to: everyone but its owner, or its owner alone (API.md §3 `visibility`).

/// The `visibility` of a registered activity.
///
/// `others`: offered to every connection except the one that registered it (an app does not
/// offer its own services back to itself unless it asks with `include_own`). `owner`: the
/// app's own services, as in an in-app browser's Action sheet — offered to the owner alone
/// and, for everyone else, as if it did not exist (absent from lists; `NotFound` by id).
/// Manifests and desktop entries have no owner and are always `others`.
public enum ActivityVisibility: String, Sendable, Hashable, CaseIterable {
    case others, owner

    /// Whether an activity of `owner` with this visibility exists at all for `caller`
    /// (lists, `Perform`, `Explain`); `others` activities exist for everyone.
    @inlinable
    public func isVisible(owner: String?, to caller: String) -> Bool {
        self == .others || owner == caller
    }
}
