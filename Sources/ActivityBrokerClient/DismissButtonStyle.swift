// DismissButtonStyle: the label of the button that ends a browsing session (SFSafariViewController.DismissButtonStyle).

/// The label of the button that ends a session; the raw value is `Browse`'s
/// `dismiss_button_style`.
public enum DismissButtonStyle: String, Hashable, Sendable, CaseIterable {
    case done
    case close
    case cancel

    /// The English label for the button.
    public var title: String {
        switch self {
        case .done: "Done"
        case .close: "Close"
        case .cancel: "Cancel"
        }
    }
}
