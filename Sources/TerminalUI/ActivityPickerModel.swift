// ActivityPickerModel: the picker's entries, selection and key handling, free of I/O.

/// One row of the activity picker.
public struct ActivityPickerEntry: Hashable, Sendable {
    /// Which section an entry is listed in; `share` entries come first.
    public enum Group: Hashable, Sendable, CaseIterable {
        case share
        case action

        /// The section heading.
        public var title: String {
            switch self {
            case .share: return "Share"
            case .action: return "Actions"
            }
        }
    }

    public var id: String
    public var title: String
    /// A short symbol shown before the title (one or two columns, e.g. "✈"); untrusted, sanitized.
    public var glyph: String?
    public var group: Group

    public init(id: String, title: String, glyph: String? = nil, group: Group) {
        self.id = id
        self.title = title
        self.glyph = glyph
        self.group = group
    }
}

/// What the picker is about: the page's title and URL.
public struct ActivityPickerHeader: Hashable, Sendable {
    public var title: String
    public var url: String
    public init(title: String, url: String) {
        self.title = title
        self.url = url
    }
}

/// How a picker ended.
public enum PickerResult: Hashable, Sendable {
    /// The entry with this id was chosen.
    case chosen(String)
    /// Esc, q, Ctrl-C, Ctrl-D, an empty answer, or end of input.
    case cancelled
}

/// The picker's state and key handling, without I/O: tests drive it with keys.
///
/// Entries are shown share group first, each group in the given order, numbered 1...n in that
/// display order. Keys:
/// - Up/Down (and k/j) move by one and stop at the ends — no wrap-around, so holding a key never
///   overshoots back to the top. Tab and Shift-Tab move by one and do wrap.
/// - Left/Right jump to the first entry of the previous/next group (no-op without one).
/// - Home/PageUp: first entry; End/PageDown: last entry.
/// - Enter chooses the highlighted entry. Esc, q, Ctrl-C, Ctrl-D cancel.
/// - Digits select, they never choose: only Enter performs, so a digit typed into a terminal
///   that still shows a picker cannot share anything. Digits build a number: a digit that
///   extends the number typed so far to one in range selects that entry (1 then 2 selects 12
///   when there are 12); otherwise it starts a new number. Digits that make no number in range
///   (0, or above the count) are ignored. Any other key ends the number.
public struct ActivityPickerModel: Sendable {
    public var header: ActivityPickerHeader
    /// Entries in display order.
    public let entries: [ActivityPickerEntry]
    /// An extra line under the list (e.g. "Telegram is not installed"); untrusted, sanitized.
    public var status: String?
    /// Index into `entries` of the highlighted entry (0 when there are none).
    public private(set) var selection = 0
    /// The number typed so far (digits since the last other key), empty when none.
    public private(set) var typedNumber = ""

    /// Orders `entries` for display: the share group first, order within a group kept.
    public init(header: ActivityPickerHeader, entries: [ActivityPickerEntry], status: String? = nil) {
        self.header = header
        self.entries = Self.displayOrder(entries)
        self.status = status
    }

    /// `entries` with share entries before action entries, each group's order kept.
    public static func displayOrder(_ entries: [ActivityPickerEntry]) -> [ActivityPickerEntry] {
        ActivityPickerEntry.Group.allCases.flatMap { group in entries.filter { $0.group == group } }
    }

    /// The non-empty groups with the range of `entries` each covers, in display order.
    public var groups: [(group: ActivityPickerEntry.Group, range: Range<Int>)] {
        var result: [(group: ActivityPickerEntry.Group, range: Range<Int>)] = []
        for group in ActivityPickerEntry.Group.allCases {
            guard let first = entries.firstIndex(where: { $0.group == group }) else { continue }
            let end = entries[first...].firstIndex(where: { $0.group != group }) ?? entries.count
            result.append((group, first..<end))
        }
        return result
    }

    /// The number shown for entry `index` (1-based).
    public func number(of index: Int) -> Int { index + 1 }

    /// Applies `key`; returns the result when the picker is done (Enter or a cancel key).
    public mutating func handle(_ key: Key) -> PickerResult? {
        if let digit = key.digit {
            selectTyped(digit)
            return nil
        }
        typedNumber = ""
        switch key {
        case .escape, .ctrlC, .ctrlD, .character("q"), .character("Q"):
            return .cancelled
        case .enter:
            return entries.isEmpty ? nil : choose(selection)
        case .up, .character("k"):
            selection = max(0, selection - 1)
        case .down, .character("j"):
            selection = max(0, min(entries.count - 1, selection + 1))
        case .tab:
            if !entries.isEmpty { selection = (selection + 1) % entries.count }
        case .backTab:
            if !entries.isEmpty { selection = (selection + entries.count - 1) % entries.count }
        case .home, .pageUp:
            selection = 0
        case .end, .pageDown:
            selection = max(0, entries.count - 1)
        case .left:
            let all = groups
            if let current = all.firstIndex(where: { $0.range.contains(selection) }), current > 0 {
                selection = all[current - 1].range.lowerBound
            }
        case .right:
            let all = groups
            if let current = all.firstIndex(where: { $0.range.contains(selection) }), current + 1 < all.count
            {
                selection = all[current + 1].range.lowerBound
            }
        default:
            break
        }
        return nil
    }

    /// Extends the typed number with `digit` when that names an entry, else starts a new
    /// number with it; selects the entry named, if any.
    private mutating func selectTyped(_ digit: Int) {
        for candidate in [typedNumber + String(digit), String(digit)] {
            if let number = Int(candidate), number >= 1, number <= entries.count {
                typedNumber = candidate
                selection = number - 1
                return
            }
        }
        typedNumber = ""
    }

    private mutating func choose(_ index: Int) -> PickerResult {
        selection = index
        return .chosen(entries[index].id)
    }
}
