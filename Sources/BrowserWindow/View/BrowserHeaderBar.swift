// The browser window's header bar: dismiss, back/forward, the read-only address with its security indicator, Reader, Action, Open in Browser.
import CGtk
import GtkSupport

/// What the header bar shows, taken from the web view at each render.
struct HeaderBarState {
    var address: AddressBar
    var canGoBack: Bool
    var canGoForward: Bool
    var hasArticle: Bool
    var inReader: Bool
    /// The page scrolled down under `bar_collapsing_enabled`: only the address stays.
    var collapsed: Bool
    var canShare: Bool
}

/// The widgets of the header bar and how they draw a `HeaderBarState`. Clicks go to the
/// callbacks; the window decides what they do. Main thread only.
///
/// Layout: the dismiss button (plain text in the control tint, as in Safari's view controller)
/// and back/forward at the start; the address (lock or "Not Secure", the site; the full URL,
/// selected, while it has the focus) in the middle; Reader, Action and Open in Browser at the end.
@MainActor
final class BrowserHeaderBar {
    let widget: Widget
    private let dismissButton: Widget
    private let navigation: Widget
    private let backButton: Widget
    private let forwardButton: Widget
    private let readerButton: Widget
    private let actionButton: Widget
    private let openButton: Widget
    private let addressLabel: Widget
    private let securityIcon: Widget
    private let securityLabel: Widget
    private var address = AddressBar(url: nil, tlsVerified: false, certificateError: false)
    private var addressFocused = false

    var onDismiss: () -> Void = {}
    var onBack: () -> Void = {}
    var onForward: () -> Void = {}
    var onReader: () -> Void = {}
    var onAction: () -> Void = {}
    var onOpenInBrowser: () -> Void = {}

    init(dismissTitle: String) {
        widget = gtk_header_bar_new()!
        gtk_header_bar_set_show_title_buttons(cgtk_header_bar(widget), 0)
        dismissButton = Widgets.textButton(dismissTitle)
        Widgets.addClass(dismissButton, "flat")
        Widgets.addClass(dismissButton, "tinted")
        backButton = Self.iconButton("go-previous-symbolic", BrowserStrings.back)
        forwardButton = Self.iconButton("go-next-symbolic", BrowserStrings.forward)
        navigation = Widgets.box(vertical: false)
        Widgets.addClass(navigation, "linked")
        Widgets.append(navigation, backButton, forwardButton)
        gtk_header_bar_pack_start(cgtk_header_bar(widget), dismissButton)
        gtk_header_bar_pack_start(cgtk_header_bar(widget), navigation)

        securityIcon = gtk_image_new_from_icon_name("channel-insecure-symbolic")
        cgtk_set_accessible_hidden(securityIcon)
        securityLabel = Widgets.label("")
        Widgets.addClass(securityLabel, "dim-label")
        addressLabel = Widgets.label("", xalign: 0.5)
        gtk_label_set_selectable(cgtk_label(addressLabel), 1)
        gtk_label_set_single_line_mode(cgtk_label(addressLabel), 1)
        gtk_label_set_ellipsize(cgtk_label(addressLabel), PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_max_width_chars(cgtk_label(addressLabel), 60)
        let addressBox = Widgets.box(vertical: false, spacing: 6)
        gtk_widget_set_halign(addressBox, GTK_ALIGN_CENTER)
        Widgets.append(addressBox, securityIcon, securityLabel, addressLabel)
        gtk_header_bar_set_title_widget(cgtk_header_bar(widget), addressBox)

        readerButton = Self.iconButton("x-office-document-symbolic", BrowserStrings.reader)
        gtk_button_set_child(cgtk_button(readerButton), Widgets.label(BrowserStrings.reader, xalign: 0.5))
        actionButton = Self.iconButton("send-to-symbolic", BrowserStrings.share)
        openButton = Self.iconButton("web-browser-symbolic", BrowserStrings.openInBrowser)
        gtk_header_bar_pack_end(cgtk_header_bar(widget), openButton)
        gtk_header_bar_pack_end(cgtk_header_bar(widget), actionButton)
        gtk_header_bar_pack_end(cgtk_header_bar(widget), readerButton)
        connect()
    }

    private static func iconButton(_ icon: String, _ name: String) -> Widget {
        let button = Widgets.button(child: gtk_image_new_from_icon_name(icon), name: name)
        Widgets.addClass(button, "tinted")
        return button
    }

    private func connect() {
        GtkSignals.connect(dismissButton, "clicked") { [weak self] in self?.onDismiss() }
        GtkSignals.connect(backButton, "clicked") { [weak self] in self?.onBack() }
        GtkSignals.connect(forwardButton, "clicked") { [weak self] in self?.onForward() }
        GtkSignals.connect(readerButton, "clicked") { [weak self] in self?.onReader() }
        GtkSignals.connect(actionButton, "clicked") { [weak self] in self?.onAction() }
        GtkSignals.connect(openButton, "clicked") { [weak self] in self?.onOpenInBrowser() }
        let focus = gtk_event_controller_focus_new()!
        GtkSignals.connect(UnsafeMutableRawPointer(focus), "enter") { [weak self] in
            self?.addressFocused = true
            self?.renderAddress()
        }
        GtkSignals.connect(UnsafeMutableRawPointer(focus), "leave") { [weak self] in
            self?.addressFocused = false
            self?.renderAddress()
        }
        gtk_widget_add_controller(addressLabel, focus)
    }

    /// Moves the keyboard focus to the address (Ctrl+L), which then shows the full URL selected.
    func focusAddress() {
        gtk_widget_grab_focus(addressLabel)
    }

    func render(_ state: HeaderBarState) {
        address = state.address
        renderAddress()
        gtk_image_set_from_icon_name(cgtk_image(securityIcon), address.securityIcon)
        Widgets.setText(securityLabel, address.securityLabel ?? "")
        Widgets.setVisible(securityLabel, address.securityLabel != nil)
        gtk_widget_set_sensitive(backButton, state.canGoBack ? 1 : 0)
        gtk_widget_set_sensitive(forwardButton, state.canGoForward ? 1 : 0)
        Widgets.setVisible(readerButton, state.hasArticle && !state.collapsed)
        for control in [dismissButton, navigation, actionButton, openButton] {
            Widgets.setVisible(control, !state.collapsed)
        }
        // Smaller while collapsed; the label stays, so AT-SPI still reads the address.
        Self.setClass(addressLabel, "caption", state.collapsed)
        Self.setClass(readerButton, "suggested-action", state.inReader)
        gtk_widget_set_sensitive(actionButton, state.canShare ? 1 : 0)
    }

    private func renderAddress() {
        let text = addressFocused ? address.fullURL : address.site
        if gtk_label_get_text(cgtk_label(addressLabel)).map({ String(cString: $0) }) != text {
            Widgets.setText(addressLabel, text)
        }
        if addressFocused { gtk_label_select_region(cgtk_label(addressLabel), 0, -1) }
        gtk_widget_set_tooltip_text(addressLabel, address.fullURL)
        cgtk_set_accessible_description(addressLabel, address.fullURL)
    }

    private static func setClass(_ widget: Widget, _ name: String, _ present: Bool) {
        if present {
            Widgets.addClass(widget, name)
        } else {
            gtk_widget_remove_css_class(widget, name)
        }
    }
}
