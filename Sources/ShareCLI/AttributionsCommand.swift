// `share attributions [--json] [--clear]`: the pending Private Click Measurement clicks and reports.
import ActivityBrokerClient
import ActivityKit
import DBus
import Foundation
import SystemSupport

/// Lists or clears click measurement data (API.md §11).
///
/// Listing reads `$XDG_STATE_HOME/activity-broker/attribution.json` directly: it is the
/// user's own file, and a D-Bus method would let any app on the session bus (sandboxed ones
/// included) read which sites the user clicked ads on. Clearing goes through the broker
/// (`Broker1.ClearAttributions`), which holds the data in memory and would otherwise write
/// it back at its next change.
enum AttributionsCommand {
    /// What `--clear --json` prints once the broker has cleared: one object, like the other
    /// commands' `--json` outputs, so a script reads a result instead of an empty line (a
    /// failure exits non-zero with the error on standard error, printing nothing here).
    static let clearedJSON = #"{"cleared":true}"#

    static func run(json: Bool, clear: Bool, bus: BusAddress) async throws -> ShareExit {
        if clear {
            let broker = try BrokerProxy.connect(bus: bus)
            try await broker.clearAttributions()
            Output.line(json ? clearedJSON : "Click measurement data cleared.")
            return .completed
        }
        let path = XDGPaths().stateHome + AttributionStoreFormat.pathInStateHome
        var store = AttributionStore()
        if let data = FileManager.default.contents(atPath: path) {
            guard let read = AttributionStoreFormat.store(fromFile: Array(data)) else {
                throw ShareFailure("\(path) is not a click measurement file", exit: .failed)
            }
            store = read
            store.removeExpired(now: Int(Date().timeIntervalSince1970))
        }
        if json {
            Output.line(AttributionStoreFormat.listing(store))
            return .completed
        }
        if store.isEmpty { Output.line("No pending clicks or reports.") }
        for click in store.clicks {
            Output.line(
                "click   \(click.sourceSite) → \(click.destinationSite)  source id \(click.sourceID)  expires \(click.expires)"
            )
        }
        for report in store.reports {
            Output.line(
                "report  \(report.sourceSite) → \(report.destinationSite)  source id \(report.sourceID)  "
                    + "trigger data \(report.triggerData)  priority \(report.priority)  "
                    + "sent after \(AttributionDay(containing: report.sendAfter))")
        }
        return .completed
    }
}
