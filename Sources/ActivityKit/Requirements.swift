// Requirements: what must exist on the machine for an activity to be offered (manifest "requires").

/// `requires` (API.md §4): programs on PATH and D-Bus names that are owned or activatable.
public struct Requirements: Hashable, Sendable {
    /// Program names looked up on PATH (or absolute paths).
    public var executables: [String]
    /// Well-known bus names that must have an owner or be activatable.
    public var dbusNames: [String]

    /// Builds requirements; none by default.
    public init(executables: [String] = [], dbusNames: [String] = []) {
        self.executables = executables
        self.dbusNames = dbusNames
    }

    /// No requirements.
    public static let none = Requirements()
}
