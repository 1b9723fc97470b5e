// The share sheet without a toolkit: what it offers, the search, the selection and its life.
import Foundation

/// Everything the sheet shows and decides, as a value: the view draws it and forwards keys and
/// clicks; the service carries out the effects (the reply to `Show`, closing the window).
///
/// Display order: the Share row (category `share`, in the order given) above the Actions list
/// (category `action`, in the order given). Keyboard order follows the display order, and Left and Right
/// what is drawn (`direction`: in a right-to-left layout Left goes to the next activity). The
/// selection starts on the first activity *given* (the broker's ranking), whichever section it
/// is drawn in (API.md §10: focus starts on the first offered activity).
public struct SheetModel: Hashable, Sendable {
    public let header: SheetHeader
    /// The activities in the order the broker gave them.
    public let activities: [SheetActivity]
    /// Share row first, then the Actions list.
    public let displayOrder: [SheetActivity]
    /// Which way the sheet is drawn; the Left and Right keys follow it.
    public let direction: SheetDirection
    /// What the user typed to filter by name.
    public private(set) var query = ""
    /// The activity that has the focus (nil only when the search matches nothing).
    public private(set) var selectedID: String?
    public private(set) var phase: SheetPhase = .choosing
    /// The share entry selected last, so that Up from the Actions list returns to it.
    private var lastShareID: String?

    /// The longest search kept (more typing is ignored).
    public static let maximumQueryLength = 64

    public init(header: SheetHeader, activities: [SheetActivity], direction: SheetDirection = .leftToRight) {
        self.header = header
        self.activities = activities
        self.direction = direction
        displayOrder =
            activities.filter { $0.category == .share } + activities.filter { $0.category == .action }
        selectedID = activities.first?.id
        if activities.first?.category == .share { lastShareID = selectedID }
    }

    // MARK: What is shown

    /// Whether `activity` matches the search: its name contains the query, ignoring case and
    /// accents ("tele" finds "Telegram", "e" finds "É").
    public func matches(_ activity: SheetActivity) -> Bool {
        query.isEmpty
            || activity.name.range(of: query, options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }

    /// The activities shown, in display order.
    public var visible: [SheetActivity] { displayOrder.filter(matches) }
    public var visibleShares: [SheetActivity] { visible.filter { $0.category == .share } }
    public var visibleActions: [SheetActivity] { visible.filter { $0.category == .action } }

    public var selected: SheetActivity? { selectedID.flatMap { id in activities.first { $0.id == id } } }

    /// Whether to say "No matches" instead of the lists.
    public var showsNoMatches: Bool { phase == .choosing && visible.isEmpty }

    // MARK: Input

    /// A key press; returns what the owner must do.
    public mutating func press(_ key: SheetKey) -> [SheetEffect] {
        switch phase {
        case .choosing:
            return pressWhileChoosing(key)
        case .running:
            // Already answered: Esc only takes the window away; the broker finishes the job.
            return key == .escape ? closeWindow() : []
        case .failed:
            switch key {
            case .escape, .enter, .space: return closeWindow()
            default: return []
            }
        case .closed:
            return []
        }
    }

    private mutating func pressWhileChoosing(_ key: SheetKey) -> [SheetEffect] {
        switch key {
        case .escape:
            return dismiss()
        case .enter:
            return selectedID.map { choose($0) } ?? []
        case .space:
            // While searching a space is part of the name ("Reading List"); otherwise it chooses,
            // as on any focused button.
            if query.isEmpty { return selectedID.map { choose($0) } ?? [] }
            type(" ")
        case .character(let character):
            type(String(character))
        case .backspace:
            if !query.isEmpty {
                query.removeLast()
                keepSelectionVisible()
            }
        case .tab: moveBy(1, wrapping: true)
        case .shiftTab: moveBy(-1, wrapping: true)
        case .left, .right:
            // In visual order: in a right-to-left layout Left goes to the next activity.
            moveBy(direction.step(key) ?? 0, wrapping: false)
        case .down: moveDown()
        case .up: moveUp()
        }
        return []
    }

    /// The user clicked (or otherwise activated) an activity.
    public mutating func choose(_ id: String) -> [SheetEffect] {
        guard phase == .choosing, let activity = visible.first(where: { $0.id == id }) else { return [] }
        select(id)
        phase = .running(activity)
        return [.respond(.chosen(activityID: id))]
    }

    /// The user closed the window (Esc, the Cancel button, the window manager).
    public mutating func dismiss() -> [SheetEffect] {
        switch phase {
        case .choosing:
            phase = .closed
            return [.respond(.cancelled), .closeWindow]
        case .running, .failed:
            return closeWindow()
        case .closed:
            return []
        }
    }

    /// The broker's `Close`: the caller cancelled.
    public mutating func close() -> [SheetEffect] { dismiss() }

    /// The broker's `Update` with the job's state.
    public mutating func update(_ state: SheetJobState, message: String) -> [SheetEffect] {
        switch (phase, state) {
        case (.choosing, .running), (.running, .running):
            return []
        case (.choosing, .completed), (.choosing, .cancelled):
            phase = .closed
            return [.respond(.cancelled), .closeWindow]
        case (.choosing, .failed):
            phase = .failed(activity: nil, message: message)
            return [.respond(.failed(message: message))]
        case (.running, .completed), (.running, .cancelled):
            return closeWindow()
        case (.running(let activity), .failed):
            phase = .failed(activity: activity, message: message)
            return []
        case (.failed, _), (.closed, _):
            // Final states: the message stays until the user closes it.
            return []
        }
    }

    // MARK: Search and selection

    private mutating func type(_ text: String) {
        guard query.count + text.count <= Self.maximumQueryLength else { return }
        query += text
        keepSelectionVisible()
    }

    /// After the search changed: keep the selection if it still matches, else the first match.
    private mutating func keepSelectionVisible() {
        let shown = visible
        if let selectedID, shown.contains(where: { $0.id == selectedID }) { return }
        selectedID = nil
        if let first = shown.first { select(first.id) }
    }

    private mutating func select(_ id: String) {
        selectedID = id
        if displayOrder.first(where: { $0.id == id })?.category == .share { lastShareID = id }
    }

    private var selectedVisibleIndex: Int? {
        selectedID.flatMap { id in visible.firstIndex { $0.id == id } }
    }

    private mutating func moveBy(_ step: Int, wrapping: Bool) {
        let shown = visible
        guard !shown.isEmpty else { return }
        guard let index = selectedVisibleIndex else { return select(shown[0].id) }
        var next = index + step
        if wrapping {
            next = (next + shown.count) % shown.count
        } else {
            next = min(max(next, 0), shown.count - 1)
        }
        select(shown[next].id)
    }

    /// Down leaves the Share row for the Actions list; within the list it moves one down.
    private mutating func moveDown() {
        guard let selected, selected.category == .share else { return moveBy(1, wrapping: false) }
        if let firstAction = visibleActions.first { select(firstAction.id) }
    }

    /// Up from the first action returns to the Share row (where the user left it).
    private mutating func moveUp() {
        let actions = visibleActions
        guard let selectedID, actions.first?.id == selectedID else {
            if selected?.category == .action { moveBy(-1, wrapping: false) }
            return
        }
        let shares = visibleShares
        if let last = lastShareID, shares.contains(where: { $0.id == last }) {
            select(last)
        } else if let first = shares.first {
            select(first.id)
        }
    }

    private mutating func closeWindow() -> [SheetEffect] {
        phase = .closed
        return [.closeWindow]
    }
}
