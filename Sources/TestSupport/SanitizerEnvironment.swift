// The sanitizer settings of the test process, handed on to every child a test starts.
import Foundation

/// The variables that configure a sanitizer runtime, and the test time scale, as this process
/// has them; `ChildProcess` adds them to every environment it is given.
///
/// Why: tests give the broker and the other binaries a whole environment of their own
/// (`BrokerLayout.environment`). Without these, a child built with a sanitizer (`make
/// sanitize`) runs with the runtime's defaults: its report goes to a stderr the test reads or
/// drops instead of to the run's report files, its leak check ignores the run's setting and
/// suppressions, and its exit status (23 after a leak report) fails tests for no stated reason.
public enum SanitizerEnvironment {
    /// The variables passed on.
    public static let names = [
        "ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS", "ACTIVITY_BROKER_TEST_TIME_SCALE",
    ]

    /// Those of `names` this process has.
    public static let inherited: [String: String] = ProcessInfo.processInfo.environment.filter {
        names.contains($0.key)
    }

    /// `environment` with the inherited variables it does not set itself.
    public static func adding(to environment: [String: String]) -> [String: String] {
        environment.merging(inherited) { given, _ in given }
    }
}
