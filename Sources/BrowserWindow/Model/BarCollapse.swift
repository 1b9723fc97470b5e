// The page script that reports the scroll direction, and the message it posts, for bar_collapsing_enabled.
import Foundation

/// How the header bar follows the page's scrolling (API.md §10 `bar_collapsing_enabled`, after
/// `SFSafariViewController.Configuration.barCollapsingEnabled`): a user script in its own world
/// (the page cannot see it or post in its name) watches `scroll` and posts "down" or "up" with
/// the page's address when the direction changes by more than a margin, at most five times a
/// second; the top of the page always counts as "up".
enum BarCollapse {
    /// The script world and the message handler's name.
    static let world = "activity-browser-bars"
    static let handler = "activityBrowserBars"
    /// Pixels the page must move against the current direction before it flips (hysteresis).
    static let margin = 48

    static let script = """
        (() => {
          if (window.top !== window) return;
          let state = "up", anchor = window.scrollY, timer = 0;
          const check = () => {
            timer = 0;
            const y = window.scrollY;
            let next = state;
            if (y <= 8) next = "up";
            else if (state === "up" && y > anchor + \(margin)) next = "down";
            else if (state === "down" && y < anchor - \(margin)) next = "up";
            if (next !== state) {
              state = next;
              anchor = y;
              window.webkit.messageHandlers.\(handler).postMessage(state + " " + location.href);
            } else {
              anchor = state === "down" ? Math.max(anchor, y) : Math.min(anchor, y);
            }
          };
          window.addEventListener("scroll", () => { if (!timer) timer = setTimeout(check, 200); },
                                  { passive: true });
        })();
        """

    /// Parses a message: "down URL" → (true, URL); nil for anything else.
    static func parse(_ message: String) -> (collapsed: Bool, url: String)? {
        let parts = message.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, ["down", "up"].contains(parts[0]) else { return nil }
        return (parts[0] == "down", parts[1])
    }
}
