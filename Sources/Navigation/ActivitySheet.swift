// ActivitySheet: the Action button's sheet: share row, action row, and the items they act on.

import ActivityBrokerClient

/// What the Action button shows: the share row and the action row, and the items a choice
/// acts on.
public struct ActivitySheet: Hashable, Sendable {
    /// The items the activities were asked for.
    public var items: SharedItems
    /// Send to someone or somewhere: the app's own first, then the broker's in its order.
    public var shareRow: [OfferedActivity]
    /// Do something with it: the app's own first, then the broker's in its order.
    public var actionRow: [OfferedActivity]
    /// Why the broker's activities are missing, when it could not be asked; the app's own
    /// activities are still there.
    public var brokerError: String?

    /// Creates a sheet.
    public init(
        items: SharedItems, shareRow: [OfferedActivity], actionRow: [OfferedActivity],
        brokerError: String? = nil
    ) {
        self.items = items
        self.shareRow = shareRow
        self.actionRow = actionRow
        self.brokerError = brokerError
    }

    /// Both rows, share first.
    public var all: [OfferedActivity] { shareRow + actionRow }
}
