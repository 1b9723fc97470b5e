// The long list of the geometry tests (20 shares, 20 actions) and how they find a control among the placed ones.
import DBus

/// 40 activities: 20 shares (far more than a row shows), then 20 actions.
let manyActivities: [[String: Value]] =
    (1...20).map { index in
        let icons = ["telegram", "mail-send", "signal-desktop", ""]
        return SheetFixture.activity("share.\(index)", "Share App \(index)", "share", icon: icons[index % 4])
    }
    + (1...20).map { index in
        let icons = ["edit-copy", "web-browser", "bookmark-new"]
        return SheetFixture.activity("action.\(index)", "Action \(index)", "action", icon: icons[index % 3])
    }

/// A visible horizontal scroll bar (the Share row's; the lists' is vertical).
func sideways(scrollBarIn controls: [PlacedControl]) -> PlacedControl? {
    controls.first { $0.role == "scroll bar" && $0.bounds.width > $0.bounds.height }
}

/// The control named `name` (a push button unless told), if visible.
func control(_ name: String, role: String = "push button", in controls: [PlacedControl])
    -> PlacedControl?
{
    controls.first { $0.role == role && $0.name == name }
}
