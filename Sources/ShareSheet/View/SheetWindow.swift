// The sheet's GTK window: draws a SheetModel and forwards keys, clicks and closing to its owner.
import CGtk
import GtkSupport

/// The window of one sheet. It decides nothing: `render` draws the model, and input goes to
/// the callbacks, which run the model and call `render` again. Main thread only.
///
/// Layout: a header bar (Cancel), the page header (title, URL with the host in bold, the
/// calling app), the search line (shown while typing), a scrolling area with the Share row of
/// large icons and the Actions list, and in its place after a choice the progress line or the
/// failure message with a Close button.
///
/// Small screens: the window opens no larger than the smallest monitor (`defaultSize`); its
/// minimum size holds only the header bar, the page header (two lines of title at most, the
/// URL and the app's name ellipsized) and a little of the lists, which scroll inside the
/// window (`SheetScrolling`), as does the failure view with a long message.
@MainActor
final class SheetWindow {
    let window: Widget
    private let strings: SheetStrings
    private var buttons: [String: Widget] = [:]
    private let cancelButton: Widget
    private let searchEntry: Widget
    private let lists: Widget
    private let shareHeading: Widget
    private let shareRow: Widget
    /// The horizontal scroller around the Share row (hidden with it).
    private let shareScroller: Widget
    private let actionsHeading: Widget
    private let actionsList: Widget
    private let noMatches: Widget
    private let progress: Widget
    private let spinner: Widget
    private let progressLabel: Widget
    /// The failure view: a vertical scroller around its icon, heading, message and Close.
    private let failure: Widget
    private let failureHeading: Widget
    private let failureMessage: Widget
    private let closeButton: Widget
    private var destroyed = false

    /// A key press, already mapped; returns whether it was consumed.
    var onKey: (SheetKey) -> Bool = { _ in false }
    /// An activity's button was clicked.
    var onChoose: (String) -> Void = { _ in }
    /// Cancel, Close or the window manager's close button.
    var onDismiss: () -> Void = {}

    /// Builds the window for `model` (not yet shown: call `present`).
    init(model: SheetModel, strings: SheetStrings, app: DesktopApp?) {
        self.strings = strings
        window = gtk_window_new()
        gtk_window_set_title(cgtk_window(window), strings.windowTitle(pageTitle: model.header.title))
        let size = Self.defaultSize(fitting: MonitorArea.smallestUsableSize())
        gtk_window_set_default_size(cgtk_window(window), size.width, size.height)
        Widgets.addClass(window, "activity-sheet")

        let headerBar = gtk_header_bar_new()!
        gtk_header_bar_set_show_title_buttons(cgtk_header_bar(headerBar), 0)
        let barTitle = Widgets.label(strings.share, xalign: 0.5)
        Widgets.addClass(barTitle, "title")
        gtk_header_bar_set_title_widget(cgtk_header_bar(headerBar), barTitle)
        cancelButton = Widgets.textButton(strings.cancel)
        gtk_header_bar_pack_start(cgtk_header_bar(headerBar), cancelButton)
        gtk_window_set_titlebar(cgtk_window(window), headerBar)

        let content = Widgets.box(vertical: true)
        gtk_window_set_child(cgtk_window(window), content)
        Widgets.append(
            content, Self.pageHeader(model.header, strings: strings, app: app),
            gtk_separator_new(GTK_ORIENTATION_HORIZONTAL))

        searchEntry = gtk_search_entry_new()
        // Typing anywhere searches (the model keeps the text); the entry only shows it, so the
        // focus stays on the activities.
        gtk_widget_set_can_focus(searchEntry, 0)
        gtk_widget_set_focusable(searchEntry, 0)
        cgtk_set_accessible_label(searchEntry, strings.search)
        Widgets.margins(searchEntry, 8, 12, 0, 12)
        Widgets.append(content, searchEntry)

        let listContent = Widgets.box(vertical: true, spacing: 6)
        Widgets.margins(listContent, 8, 8, 12, 8)
        shareHeading = Self.sectionHeading(strings.share)
        shareRow = Widgets.box(vertical: false, spacing: 4)
        actionsHeading = Self.sectionHeading(strings.actions)
        actionsList = Widgets.box(vertical: true, spacing: 2)
        noMatches = Widgets.label(strings.noMatches, xalign: 0.5)
        Widgets.addClass(noMatches, "dim-label")
        Widgets.margins(noMatches, 24, 0, 24, 0)
        shareScroller = SheetScrolling.shareRow(shareRow)
        Widgets.append(listContent, shareHeading, shareScroller, actionsHeading, actionsList, noMatches)
        lists = SheetScrolling.lists(listContent)
        Widgets.append(content, lists)

        progress = Widgets.box(vertical: false, spacing: 12)
        spinner = gtk_spinner_new()
        progressLabel = Widgets.label("")
        Widgets.wrap(progressLabel, lines: 2)
        Widgets.append(progress, spinner, progressLabel)
        Widgets.margins(progress, 24, 16, 24, 16)
        Widgets.append(content, progress)

        let failureBox = Widgets.box(vertical: true, spacing: 12)
        failureHeading = Widgets.label("")
        Widgets.wrap(failureHeading, lines: 2)
        Widgets.addClass(failureHeading, "heading")
        failureMessage = Widgets.label("")
        gtk_label_set_wrap(cgtk_label(failureMessage), 1)
        gtk_label_set_selectable(cgtk_label(failureMessage), 1)
        closeButton = Widgets.textButton(strings.close)
        gtk_widget_set_halign(closeButton, GTK_ALIGN_END)
        Widgets.addClass(closeButton, "suggested-action")
        let failureIcon = Widgets.icon("dialog-error-symbolic", size: 32)
        gtk_widget_set_halign(failureIcon, GTK_ALIGN_START)
        Widgets.append(failureBox, failureIcon, failureHeading, failureMessage, closeButton)
        Widgets.margins(failureBox, 24, 16, 24, 16)
        failure = SheetScrolling.failure(failureBox, close: closeButton)
        Widgets.append(content, failure)

        for activity in model.displayOrder {
            let button =
                activity.category == .share ? Self.shareButton(activity) : Self.actionButton(activity)
            buttons[activity.id] = button
            Widgets.append(activity.category == .share ? shareRow : actionsList, button)
            let id = activity.id
            GtkSignals.connect(button, "clicked") { [weak self] in self?.onChoose(id) }
        }
        GtkSignals.connect(cancelButton, "clicked") { [weak self] in self?.onDismiss() }
        GtkSignals.connect(closeButton, "clicked") { [weak self] in self?.onDismiss() }
        GtkSignals.connectHandled(window, "close-request") { [weak self] in
            // We close the window ourselves once the model says so.
            self?.onDismiss()
            return true
        }
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        GtkSignals.connectKeyPressed(UnsafeMutableRawPointer(keys)) { [weak self] keyval, state in
            guard let self, let key = Self.key(keyval, state) else { return false }
            return self.onKey(key)
        }
        gtk_widget_add_controller(window, keys)
        LayoutDirection.apply(model.direction, to: window)
        render(model)
    }

    // MARK: Parts

    /// The size the sheet opens at: 420×560, or less on a monitor (less its panels) smaller
    /// than that, so that on a 640×480 or an 800×600 screen the header bar with Cancel stays
    /// on screen and the lists scroll inside the window. GTK 4.8 also clamps the default size
    /// to the work area on X11 (the tests pass without this), but on Wayland only when the
    /// compositor sends `configure_bounds`, which is optional.
    static func defaultSize(fitting usable: (width: Int32, height: Int32)?) -> (width: Int32, height: Int32) {
        let preferred: (width: Int32, height: Int32) = (420, 560)
        guard let usable else { return preferred }
        return (min(preferred.width, usable.width), min(preferred.height, usable.height))
    }

    private static func pageHeader(_ header: SheetHeader, strings: SheetStrings, app: DesktopApp?) -> Widget {
        let box = Widgets.box(vertical: true, spacing: 4)
        Widgets.margins(box, 12, 16, 12, 16)
        let title = Widgets.label("<b>\(Widgets.escape(header.headline))</b>", markup: true)
        Widgets.wrap(title, lines: 2)
        Widgets.addClass(title, "sheet-title")
        let url = header.url
        let markup =
            "<span alpha=\"55%\">\(Widgets.escape(url.leading))</span><b>\(Widgets.escape(url.host))</b>"
            + "<span alpha=\"55%\">\(Widgets.escape(url.trailing))</span>"
        let address = Widgets.label(markup, markup: true)
        gtk_label_set_ellipsize(cgtk_label(address), PANGO_ELLIPSIZE_END)
        gtk_label_set_single_line_mode(cgtk_label(address), 1)
        gtk_widget_set_tooltip_text(address, url.text)
        cgtk_set_accessible_label(address, url.text)
        Widgets.append(box, title, address)
        if let name = header.appName {
            let line = Widgets.box(vertical: false, spacing: 6)
            if let icon = app?.icon { Widgets.append(line, icon) }
            let from = Widgets.label(strings.from(app: name))
            Widgets.addClass(from, "dim-label")
            gtk_label_set_ellipsize(cgtk_label(from), PANGO_ELLIPSIZE_END)
            Widgets.append(line, from)
            Widgets.append(box, line)
        }
        return box
    }

    private static func sectionHeading(_ text: String) -> Widget {
        let label = Widgets.label(text)
        Widgets.addClass(label, "heading")
        Widgets.addClass(label, "dim-label")
        Widgets.margins(label, 6, 8, 0, 8)
        return label
    }

    /// A large icon over its name, as in a phone's share sheet.
    private static func shareButton(_ activity: SheetActivity) -> Widget {
        let column = Widgets.box(vertical: true, spacing: 6)
        let label = Widgets.label(activity.name, xalign: 0.5)
        Widgets.wrap(label, lines: 2)
        gtk_label_set_justify(cgtk_label(label), GTK_JUSTIFY_CENTER)
        gtk_label_set_max_width_chars(cgtk_label(label), 10)
        gtk_label_set_width_chars(cgtk_label(label), 8)
        Widgets.append(column, Widgets.icon(activity.icon, size: 48), label)
        Widgets.margins(column, 4, 0, 4, 0)
        return Widgets.button(child: column, name: activity.name)
    }

    /// A small icon beside its name, as in a menu.
    private static func actionButton(_ activity: SheetActivity) -> Widget {
        let row = Widgets.box(vertical: false, spacing: 12)
        let label = Widgets.label(activity.name)
        gtk_label_set_ellipsize(cgtk_label(label), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(label, 1)
        Widgets.append(row, Widgets.icon(activity.icon, size: 24), label)
        Widgets.margins(row, 4, 4, 4, 4)
        return Widgets.button(child: row, name: activity.name)
    }

    /// Maps GDK's key values onto the model's keys; nil leaves the key to GTK.
    static func key(_ keyval: UInt32, _ state: GdkModifierType) -> SheetKey? {
        let modifiers = state.rawValue
        let command =
            modifiers & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue) != 0
        switch Int32(keyval) {
        case GDK_KEY_Escape: return .escape
        case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter: return .enter
        case GDK_KEY_space, GDK_KEY_KP_Space: return command ? nil : .space
        case GDK_KEY_Tab, GDK_KEY_KP_Tab: return modifiers & GDK_SHIFT_MASK.rawValue != 0 ? .shiftTab : .tab
        case GDK_KEY_ISO_Left_Tab: return .shiftTab
        case GDK_KEY_Left, GDK_KEY_KP_Left: return .left
        case GDK_KEY_Right, GDK_KEY_KP_Right: return .right
        case GDK_KEY_Up, GDK_KEY_KP_Up: return .up
        case GDK_KEY_Down, GDK_KEY_KP_Down: return .down
        case GDK_KEY_BackSpace: return .backspace
        default:
            let scalarValue = gdk_keyval_to_unicode(keyval)
            guard !command, scalarValue >= 0x20, scalarValue != 0x7f, let scalar = Unicode.Scalar(scalarValue)
            else {
                return nil
            }
            return .character(Character(scalar))
        }
    }

    // MARK: Drawing

    /// Shows the window (with the caller's activation token, so it may take the focus).
    func present(startupID: String?, transientFor parent: ParentWindow) {
        if let startupID, !startupID.isEmpty { gtk_window_set_startup_id(cgtk_window(window), startupID) }
        parent.attach(window)
        FirstFrameReport.arm(window)
        gtk_window_present(cgtk_window(window))
        // Show the focus ring from the start and keep it: the sheet is used from the keyboard,
        // GTK would show it only after the first key press, hides it 3 s later, and never
        // sees the keys the sheet moves the focus with (`FocusRing`).
        FocusRing.keepShown(window)
    }

    /// Draws `model`.
    func render(_ model: SheetModel) {
        guard !destroyed else { return }
        let choosing = model.phase == .choosing
        Widgets.setVisible(cancelButton, choosing)
        Widgets.setVisible(lists, choosing)
        Widgets.setVisible(searchEntry, choosing && !model.query.isEmpty)
        if gtk_editable_get_text(cgtk_editable(searchEntry)).map({ String(cString: $0) }) != model.query {
            gtk_editable_set_text(cgtk_editable(searchEntry), model.query)
        }
        for activity in model.displayOrder {
            if let button = buttons[activity.id] { Widgets.setVisible(button, model.matches(activity)) }
        }
        Widgets.setVisible(shareHeading, !model.visibleShares.isEmpty)
        Widgets.setVisible(shareScroller, !model.visibleShares.isEmpty)
        Widgets.setVisible(actionsHeading, !model.visibleActions.isEmpty)
        Widgets.setVisible(actionsList, !model.visibleActions.isEmpty)
        Widgets.setVisible(noMatches, model.showsNoMatches)

        switch model.phase {
        case .running(let activity):
            Widgets.setText(progressLabel, strings.progress(for: activity))
            gtk_spinner_start(cgtk_spinner(spinner))
            Widgets.setVisible(progress, true)
            Widgets.setVisible(failure, false)
        case .failed(let activity, let message):
            gtk_spinner_stop(cgtk_spinner(spinner))
            Widgets.setVisible(progress, false)
            Widgets.setText(failureHeading, strings.failureHeading(for: activity))
            Widgets.setText(failureMessage, message)
            Widgets.setVisible(failure, true)
            gtk_widget_grab_focus(closeButton)
        case .choosing, .closed:
            Widgets.setVisible(progress, false)
            Widgets.setVisible(failure, false)
        }
        if choosing, let id = model.selectedID, let button = buttons[id] {
            gtk_widget_grab_focus(button)
        }
    }

    /// Destroys the window (idempotent).
    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        gtk_window_destroy(cgtk_window(window))
    }

    /// An activation token for the app the chosen activity launches, so that it may take the
    /// focus (an X11 startup-notification id, or an xdg-activation token on Wayland).
    func activationToken() -> String {
        guard let display = gtk_widget_get_display(window),
            let context = gdk_display_get_app_launch_context(display)
        else { return "" }
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        // The launch context describes the app being started; ours stands in for the activity's.
        let info = g_app_info_create_from_commandline("true", strings.share, G_APP_INFO_CREATE_NONE, nil)
        defer { if let info { g_object_unref(UnsafeMutableRawPointer(info)) } }
        guard let token = g_app_launch_context_get_startup_notify_id(cgtk_launch_context(context), info, nil)
        else {
            return ""
        }
        defer { g_free(token) }
        return String(cString: token)
    }
}
