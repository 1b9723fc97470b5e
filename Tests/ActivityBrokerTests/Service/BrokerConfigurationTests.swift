// BrokerConfiguration.parse for the testing aids that set the broker's clocks: --gesture-window, --job-afterlife, --bus-query-timeout.
import ActivityBrokerInterface
import Testing

@testable import ActivityBroker

@Suite("BrokerConfiguration: testing aids")
struct BrokerConfigurationTests {
    /// The message `parse` throws for `arguments`, nil when it parsed.
    static func usageMessage(_ arguments: [String]) -> String? {
        do {
            _ = try BrokerConfiguration.parse(arguments)
            return nil
        } catch {
            return error.message ?? "(help)"
        }
    }

    /// The window measures the 2 s rule from when it is shown; the broker's wait starts later
    /// (when `Open` returned) and must outlast it by the report's way over the bus.
    @Test("Without --gesture-window the broker waits 3 s: the window's 2 s and 1 s for its report")
    func gestureWindowDefault() throws {
        #expect(try BrokerConfiguration.parse([]).gestureWindow == .seconds(3))
        #expect(Browser1.activationWindow == .seconds(2))
    }

    @Test(
        "--gesture-window takes fractional seconds from a millisecond to an hour",
        arguments: [
            ("0.001", Duration.milliseconds(1)), ("0.2", .milliseconds(200)), ("30", .seconds(30)), ("3600", .seconds(3600)),
        ])
    func gestureWindowParses(text: String, window: Duration) throws {
        #expect(try BrokerConfiguration.parse(["--gesture-window", text]).gestureWindow == window)
    }

    @Test(
        "--gesture-window refuses what is no window, naming the option and the value",
        arguments: ["0", "1e-10", "0.0009", "-1", "3600.5", "soon", "nan", "inf", "2s"])
    func gestureWindowRefused(text: String) {
        let message = Self.usageMessage(["--gesture-window", text])
        #expect(
            message == "--gesture-window needs a number of seconds from 0.001 to 3600, got '\(text)'",
            "\(message ?? "parsed")")
    }

    @Test("--gesture-window without a value, or an empty one, says it needs one")
    func gestureWindowMissing() {
        #expect(Self.usageMessage(["--gesture-window"]) == "--gesture-window needs a value")
        #expect(Self.usageMessage(["--gesture-window", ""]) == "--gesture-window needs a value")
    }

    @Test("--bus-query-timeout: 5 s without it; the same seconds as --gesture-window, a bad value named")
    func busQueryTimeout() throws {
        #expect(try BrokerConfiguration.parse([]).busQueryTimeout == .seconds(5))
        #expect(try BrokerConfiguration.parse(["--bus-query-timeout", "120"]).busQueryTimeout == .seconds(120))
        #expect(try BrokerConfiguration.parse(["--bus-query-timeout", "0.25"]).busQueryTimeout == .milliseconds(250))
        for text in ["0", "3601", "later"] {
            #expect(
                Self.usageMessage(["--bus-query-timeout", text])
                    == "--bus-query-timeout needs a number of seconds from 0.001 to 3600, got '\(text)'")
        }
    }

    @Test("--job-afterlife beside it: fractional seconds, 0 to a day, a bad value named")
    func jobAfterlife() throws {
        #expect(try BrokerConfiguration.parse([]).jobAfterlife == .seconds(60))
        #expect(try BrokerConfiguration.parse(["--job-afterlife", "0.2"]).jobAfterlife == .milliseconds(200))
        for text in ["-1", "86401", "soon"] {
            #expect(
                Self.usageMessage(["--job-afterlife", text])
                    == "--job-afterlife needs a number of seconds, got '\(text)'")
        }
    }

    @Test("--version among other options is not called unknown: it stands alone")
    func versionAmongOptions() {
        #expect(
            Self.usageMessage(["--bus", "unix:path=/x", "--version"])
                == "--version stands alone: activity-broker --version")
    }
}
