// TerminalTriggerReporter: tells the broker of the Private Click Measurement triggers among `share browse`'s redirects.
import ActivityBrokerClient
import ActivityKit
import Foundation
import Navigation

/// What `share browse` does with the redirects of the loads it makes itself (API.md §11;
/// main pages only, the terminal loads no subresources): a redirect to an exact trigger URL
/// (`AttributionTrigger`) goes to the broker with the URL its load began at, the page the
/// trigger belongs to (`ReportAttributionTrigger`, which the broker takes from this executable
/// alone). No other redirect leaves the process. The page loads on whatever the broker says;
/// only `LimitExceeded` (the broker is busy looking at other callers: the trigger is lost, and
/// the user may load the page again) goes to `refused`, to be told. Other failures are silent:
/// no broker, or a `share` that is not the one installed beside it, is no news to tell per load.
struct TerminalTriggerReporter: Sendable {
    let broker: BrokerProxy
    /// Gets a sentence for the user (the broker's words in it come unsanitized).
    let refused: @Sendable (String) -> Void

    /// `PageLoader`'s `onRedirect` for a session with `broker`; nil without one.
    static func redirectHook(
        _ broker: BrokerProxy?, refused: @escaping @Sendable (String) -> Void
    ) -> (@Sendable (Redirect, URL) async -> Void)? {
        guard let broker else { return nil }
        let reporter = TerminalTriggerReporter(broker: broker, refused: refused)
        return { redirect, page in await reporter.redirected(redirect, page: page) }
    }

    func redirected(_ redirect: Redirect, page: URL) async {
        let target = redirect.to.absoluteString
        guard AttributionTrigger(target) != nil else { return }
        do {
            try await broker.reportAttributionTrigger(url: target, page: page.absoluteString)
        } catch {
            guard case .limitExceeded(let why) = error else { return }
            refused("The broker did not record a click measurement trigger: \(why)")
        }
    }
}
