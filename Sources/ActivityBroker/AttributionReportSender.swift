// AttributionReportSender: posts a due click measurement report to its endpoints, off the loop.
import ActivityKit
import Dispatch
import ReportTransport

/// The production `AttributionReportSending`: `HTTPSPost` (no cookies, no credentials, no
/// Referer) of `AttributionReport.json` to each endpoint that does not have it yet, one after
/// the other on one background queue for all reports.
///
/// An endpoint has the report when its server answered, whatever the status (a 404 means the
/// site does not collect reports, which a retry cannot change); a network or TLS failure
/// leaves it waiting, and only it is posted to on the retry.
struct AttributionReportSender: AttributionReportSending {
    /// A CA file to trust instead of the system's, and `CURLOPT_CONNECT_TO` entries: the hidden
    /// broker flags `--attribution-ca` and `--attribution-connect-to`, for tests only.
    var trustedCAFile: String?
    var connectTo: [String] = []

    /// One queue, one report at a time: a POST may block its thread for its 30 s, and one at a
    /// time they never hold more than one of the process's worker threads. (`Attributions`
    /// hands over one report at a time anyway, written as sent before its POST.)
    private static let queue = DispatchQueue(label: "activity-broker.attribution-reports", qos: .utility)

    func send(
        _ report: AttributionReport, completion: @escaping @Sendable (Set<AttributionReport.Endpoint>) -> Void
    ) {
        let (ca, connect) = (trustedCAFile, connectTo)
        Self.queue.async {
            var answered: Set<AttributionReport.Endpoint> = []
            for endpoint in report.unanswered {
                if case .answered = HTTPSPost.send(
                    report.json, to: report.url(of: endpoint), trustedCAFile: ca, connectTo: connect)
                {
                    answered.insert(endpoint)
                }
            }
            completion(answered)
        }
    }
}
