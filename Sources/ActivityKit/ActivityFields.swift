// ActivityFields: what an activity is made of, read and written as `activity.<field>`.

/// The fields of an `Activity`, which stores them in one shared record.
///
/// The one-byte fields come last: between the strings they padded the record to 138 bytes
/// (a 176-byte malloc chunk with its header); together they make it 132 (a 160-byte chunk).
public struct ActivityFields: Hashable, Sendable {
    /// The unique id.
    public var id: ActivityID
    /// The display name when no localized one fits.
    public var name: String
    /// Localized names, packed (`LocalizedNames`); `names` is the same as a dictionary.
    public var localizedNames: LocalizedNames
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

    /// Localized names: locale (`de`, `de_DE`, …) → name.
    public var names: [String: String] {
        get { localizedNames.dictionary }
        set { localizedNames = LocalizedNames(newValue) }
    }
}
