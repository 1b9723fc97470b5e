// TerminalTriggerReporter: tells the broker of the Private Click Measurement triggers among `share browse`'s redirects.
import ActivityBrokerClient
import ActivityKit
import Foundation
import Navigation

/// What `share browse` does with the redirects of the loads it makes itself (API.md §11;
/// main pages only, the terminal loads no subresources): a redirect to an exact trigger URL
/// (`AttributionTrigger`) goes to the broker with the URL its load began at, the page the
/// trigger belongs to (`ReportAttributionTrigger`, which the broker takes from this executable
/// alone). No other redirect leaves the process. Failures are silent: the page loads on.
struct TerminalTriggerReporter: Sendable {
    let broker: BrokerProxy

    /// `PageLoader`'s `onRedirect` for a session with `broker`; nil without one.
    static func redirectHook(_ broker: BrokerProxy?) -> (@Sendable (Redirect, URL) async -> Void)? {
        guard let broker else { return nil }
        let reporter = TerminalTriggerReporter(broker: broker)
        return { redirect, page in await reporter.redirected(redirect, page: page) }
    }

    func redirected(_ redirect: Redirect, page: URL) async {
        let target = redirect.to.absoluteString
        guard AttributionTrigger(target) != nil else { return }
        try? await broker.reportAttributionTrigger(url: target, page: page.absoluteString)
    }
}
