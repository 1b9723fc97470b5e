// `share sheet URL`, and `share URL` without a terminal in a graphical session: the desktop's share sheet.
import ActivityBrokerClient
import Foundation
import Glibc
import TerminalUI

/// Asks the broker to show its share sheet (`Share`) over no parent window and waits for the
/// job, with the exit statuses of performing.
enum SheetCommand {
    /// Whether `share URL` should show the sheet instead of printing the list: neither
    /// standard input nor standard output is a terminal (started from a launcher, a file
    /// manager, a keyboard shortcut), and the session is graphical (`WAYLAND_DISPLAY` or
    /// `DISPLAY` set). The README states the same rule.
    static func replacesTheList(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO
    ) -> Bool {
        let graphical = ["WAYLAND_DISPLAY", "DISPLAY"].contains { !(environment[$0] ?? "").isEmpty }
        return graphical && isatty(input) != 1 && isatty(output) != 1
    }

    /// Shows the sheet and waits for the job. With `fallback`, a broker that cannot show a
    /// sheet (`Unavailable`: no sheet service, or no graphical session of its own) returns
    /// nil so that the caller does what it did without one.
    static func run(broker: BrokerProxy, items: SharedItems, fallback: Bool = false) async throws -> ShareExit? {
        let task = Task { () async throws(BrokerError) -> ActivityOutcome in
            try await broker.share(parentWindow: "", items: items)
        }
        let interrupt = InterruptHandler(flushing: broker) { task.cancel() }
        defer { interrupt.stop() }
        let outcome: ActivityOutcome
        do {
            outcome = try await task.value
        } catch BrokerError.unavailable where fallback {
            return nil
        }
        let (name, category) = await chosen(outcome.activityID, broker: broker, items: items)
        switch outcome.state {
        case .completed:
            Output.line(CompletedLine.text(name: name, category: category, results: outcome.providerResults))
            return .completed
        case .cancelled:
            Output.error("share: cancelled")
            return .cancelled
        case .failed:
            Output.error("share: \(name) failed: \(outcome.message ?? "no reason given")")
            return .failed
        }
    }

    /// The display name and category of the chosen activity (its id and no category when the
    /// broker no longer offers it).
    private static func chosen(_ id: String?, broker: BrokerProxy, items: SharedItems) async -> (String, String?) {
        guard let id else { return ("the share sheet", nil) }
        let offered = (try? await broker.activities(for: items, includeOwn: true)) ?? []
        guard let activity = offered.first(where: { $0.id == id }) else { return (id, nil) }
        return (activity.name, activity.category)
    }
}
