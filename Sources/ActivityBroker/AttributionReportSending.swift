// AttributionReportSending: how the broker hands a due click measurement report to the network.
import ActivityKit

/// Sends one report's body to its destinations, off the broker's loop.
///
/// `completion` runs once, on any thread, with whether every destination answered (any HTTP
/// status counts: the report arrived; only a network or TLS failure is a failure to retry).
protocol AttributionReportSending: Sendable {
    func send(_ report: AttributionReport, completion: @escaping @Sendable (Bool) -> Void)
}
