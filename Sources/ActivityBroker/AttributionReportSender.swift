// AttributionReportSender: posts a due click measurement report to its two destinations, off the loop.
import ActivityKit
import Dispatch
import ReportTransport

/// The production `AttributionReportSending`: `HTTPSPost` (no cookies, no credentials, no
/// Referer) of `AttributionReport.json` to each of `AttributionReport.destinations`, one
/// after the other on a background queue.
///
/// The report counts as delivered when both servers answered, whatever the status (a 404
/// means the site does not collect reports, which a retry cannot change); a network or TLS
/// failure of either makes the whole report fail, so a retry may reach a destination twice.
struct AttributionReportSender: AttributionReportSending {
    /// A CA file to trust instead of the system's, and `CURLOPT_CONNECT_TO` entries: the hidden
    /// broker flags `--attribution-ca` and `--attribution-connect-to`, for tests only.
    var trustedCAFile: String?
    var connectTo: [String] = []

    func send(_ report: AttributionReport, completion: @escaping @Sendable (Bool) -> Void) {
        let (body, destinations, ca, connect) = (report.json, report.destinations, trustedCAFile, connectTo)
        DispatchQueue.global(qos: .utility).async {
            var delivered = true
            for url in destinations {
                if case .failed = HTTPSPost.send(body, to: url, trustedCAFile: ca, connectTo: connect) {
                    delivered = false
                }
            }
            completion(delivered)
        }
    }
}
