// NavigationHistory: the back/forward list of a navigation session.

/// A back/forward list: the entries before the current one, the current one, and those
/// after it. A new navigation drops the forward entries, as in every browser.
public struct NavigationHistory<Entry: Sendable>: Sendable {
    /// All entries, oldest first.
    public private(set) var entries: [Entry] = []
    /// The index of the current entry in `entries`; `nil` while empty.
    public private(set) var currentIndex: Int?

    /// An empty history.
    public init() {}

    /// The current entry.
    public var current: Entry? { currentIndex.map { entries[$0] } }
    /// The entries `goBack()` would visit, most recent last.
    public var backList: [Entry] { currentIndex.map { Array(entries[..<$0]) } ?? [] }
    /// The entries `goForward()` would visit, nearest first.
    public var forwardList: [Entry] { currentIndex.map { Array(entries[($0 + 1)...]) } ?? [] }
    /// Whether there is an entry before the current one.
    public var canGoBack: Bool { (currentIndex ?? 0) > 0 }
    /// Whether there is an entry after the current one.
    public var canGoForward: Bool { currentIndex.map { $0 + 1 < entries.count } ?? false }

    /// Makes `entry` current, after the current one; the forward entries are dropped.
    public mutating func push(_ entry: Entry) {
        if let index = currentIndex { entries.removeSubrange((index + 1)...) }
        entries.append(entry)
        currentIndex = entries.count - 1
    }

    /// Replaces the current entry (a reload, or a load finishing); no-op when empty.
    public mutating func replaceCurrent(_ entry: Entry) {
        guard let index = currentIndex else { return }
        entries[index] = entry
    }

    /// Moves one entry back and returns the new current entry; `nil` (and no move) at the start.
    @discardableResult
    public mutating func goBack() -> Entry? {
        guard canGoBack, let index = currentIndex else { return nil }
        currentIndex = index - 1
        return entries[index - 1]
    }

    /// Moves one entry forward and returns the new current entry; `nil` (and no move) at the end.
    @discardableResult
    public mutating func goForward() -> Entry? {
        guard canGoForward, let index = currentIndex else { return nil }
        currentIndex = index + 1
        return entries[index + 1]
    }
}
