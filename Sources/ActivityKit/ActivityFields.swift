// ActivityFields: what an activity is made of, read and written as `activity.<field>`.

/// The fields of an `Activity`, which stores them in one shared record.
///
/// The localized names are not among them: they are packed bytes at the end of the same
/// record (`Activity.localizedNames`), not an array of their own beside it (one allocation
/// per activity rather than two: ~48 bytes less each, with the header and malloc's rounding).
/// The one-byte fields come last, after `namesByteCount`, so that they fill one word.
public struct ActivityFields: Hashable, Sendable {
    /// The unique id.
    public var id: ActivityID
    /// The display name when no localized one fits.
    public var name: String
    /// A freedesktop icon name or an absolute path; empty when none was given (clients show a generic icon).
    public var icon: String
    /// Which URLs it applies to.
    public var match: MatchRule
    /// What must exist on the machine.
    public var requires: Requirements
    /// How it is performed.
    public var perform: PerformSpec
    /// Ranking tie-breaker, higher first.
    public var priority: Int
    /// The unique bus name of the registering connection, for `.dbus` activities; `nil` otherwise.
    public var owner: String?
    /// How many bytes of packed localized names follow these fields in the record.
    @usableFromInline var namesByteCount: UInt32
    /// share or action.
    public var category: ActivityCategory
    /// Where it came from.
    public var origin: ActivityOrigin
    /// Manifest `default_handler_alias`: for a URL it takes the name of the default
    /// application of the URL's scheme and stands in for that application's own entry
    /// (`DefaultHandlerAliasing`).
    public var defaultHandlerAlias: Bool
    /// Who it is offered to (`owner` only for registrations that ask for it).
    public var visibility: ActivityVisibility
}
