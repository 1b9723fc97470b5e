// The project's version: what every executable's --version prints and Broker1.Version reports.

/// One place for the version, so that `share --version`, `activity-broker --version` and the
/// broker's `Version` property never disagree.
public enum ProjectVersion {
    public static let current = "1.0.0"

    /// The line `--version` prints: "PROGRAM VERSION".
    public static func line(program: String) -> String { "\(program) \(current)" }
}
