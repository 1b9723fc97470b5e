// `share open URL`: routes a URL the way an app's OpenURLAction would.
import ActivityBrokerClient
import DBus
import Foundation
import Navigation
import TerminalUI

/// http and https (any case: `HTTP://` too) open the desktop's browser window in a graphical
/// session (`WindowCommand`; waits until it closes), else a `share browse` session; other schemes go
/// to the system opener; invalid or unsafe URLs (`javascript:`, `data:`) and local files are
/// discarded with the reason (exit 2). It routes with `BrowseCommand.router`, so what it
/// reports is what `share browse` does.
///
/// With `--json` it prints the decision as `{"url", "outcome", "opened"?, "reason"?, "error"?}` and
/// carries out system actions, but starts no interactive session: the JSON is for scripts.
enum OpenCommand {
    static func run(url: String, json: Bool, bus: BusAddress) async throws -> ShareExit {
        let outcome = BrowseCommand.router.route(url)
        var report: [String: String] = ["url": url, "outcome": outcome.kind]
        let exit: ShareExit
        switch outcome.action {
        case .handled:
            if !json {
                if WindowCommand.isGraphical(), let page = URL(string: url),
                    let exit = try await WindowCommand.run(url: URLRouter.normalized(page), bus: bus)
                {
                    return exit
                }
                return try await BrowseCommand.run(url: url, bus: bus)
            }
            exit = .completed
        case .systemAction:
            guard let original = URL(string: url), let target = outcome.systemURL(for: original) else {
                throw ShareFailure("'\(url)' is not a URL", exit: .usage)
            }
            do {
                try await SystemURLOpener().open(target)
                report["opened"] = target.absoluteString
                if !json { Output.line("Opened \(target.absoluteString) with the system opener") }
                exit = .completed
            } catch {
                report["error"] = "\(error)"
                if !json { Output.error("share: the system opener failed: \(error)") }
                exit = .failed
            }
        case .discarded(let reason):
            report["reason"] = reason
            if !json { Output.error("share: not opened: \(reason)") }
            exit = .usage
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Output.line(
                TextSanitizer.escapingJSON(
                    String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self)))
        }
        return exit
    }
}
