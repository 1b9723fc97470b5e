// AttributionReportSending: how the broker hands a due click measurement report to the network.
import ActivityKit

/// Sends one report's body to the endpoints that do not have it yet (`AttributionReport.unanswered`),
/// off the broker's loop.
///
/// `completion` runs once, on any thread, with the endpoints that answered (any HTTP status
/// counts: the report arrived; only a network or TLS failure is a failure to retry).
protocol AttributionReportSending: Sendable {
    func send(
        _ report: AttributionReport, completion: @escaping @Sendable (Set<AttributionReport.Endpoint>) -> Void
    )
}
