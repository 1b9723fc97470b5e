// `share URL`: choose an activity (picker, numbered prompt, or --activity), perform it, report.
import ActivityBrokerClient
import Foundation
import Glibc
import TerminalUI

/// The interactive share: what the Action button does, in a terminal.
struct ShareFlow {
    let broker: BrokerProxy
    let items: SharedItems

    func run(activity: String?) async throws -> ShareExit {
        // Names in the terminal's language, as `share list` gives them.
        let offered = try await broker.activities(for: items, locale: ShareCommand.environmentLocale)
        if let activity {
            let known = offered.first { $0.id == activity }
            return try await perform(id: activity, name: known?.name ?? activity, category: known?.category ?? "action")
        }
        guard !offered.isEmpty else {
            // Nothing to choose from is a matter of the input, like an unknown --activity.
            Output.error(
                "share: no activity applies to \(items.url); 'share activities' lists what is registered")
            return .usage
        }
        switch try choose(from: offered) {
        case .chosen(let id):
            let chosen = offered.first { $0.id == id }!
            return try await perform(id: chosen.id, name: chosen.name, category: chosen.category)
        case .cancelled:
            return .cancelled
        case .notATerminal:
            Output.line(ActivityListing.table(offered))
            Output.error("share: not on a terminal, so no picker; choose one with --activity ID")
            return .usage
        }
    }

    private enum Choice { case chosen(String), cancelled, notATerminal }

    /// The picker on a capable terminal, a numbered prompt on a dumb one, nothing without a
    /// terminal on standard input.
    private func choose(from offered: [OfferedActivity]) throws -> Choice {
        let entries = offered.map(ActivityPickerEntry.init(offered:))
        let header = ActivityPickerHeader(title: items.title ?? "", url: items.url)
        switch try ActivityPicker.choose(header: header, entries: entries) {
        case .chosen(let id)?: return .chosen(id)
        case .cancelled?: return .cancelled
        case nil: return .notATerminal
        }
    }

    /// Performs and waits, with a spinner after half a second and one outcome line.
    private func perform(id: String, name: String, category: String) async throws -> ShareExit {
        let spinner = Spinner(label: category == "share" ? "Sending with \(name)…" : "\(name)…")
        spinner.start()
        let task = Task { try await broker.perform(id, items: items) }
        let interrupt = InterruptHandler(flushing: broker, spinner: spinner) { task.cancel() }
        defer { interrupt.stop() }
        let outcome: ActivityOutcome
        do {
            outcome = try await task.value
        } catch {
            spinner.stop(finalLine: nil)
            throw error
        }
        switch outcome.state {
        case .completed:
            spinner.stop(finalLine: CompletedLine.text(name: name, category: category, results: outcome.providerResults))
            return .completed
        case .cancelled:
            spinner.stop(finalLine: nil)
            Output.error("share: cancelled: \(name)")
            return .cancelled
        case .failed:
            // On standard error, so that a script's captured output holds only successes.
            spinner.stop(finalLine: nil)
            Output.error("share: \(name) failed: \(outcome.message ?? "no reason given")")
            return .failed
        }
    }
}

extension ActivityPickerEntry {
    /// The picker's entry for an activity the broker (or the app) offers.
    init(offered activity: OfferedActivity) {
        self.init(id: activity.id, title: activity.name, group: activity.category == "share" ? .share : .action)
    }
}
