// Where a sheet is in its life, and what the model asks its owner to do.

/// The life of one sheet: choosing → running → closed, or → failed (until the user closes it).
public enum SheetPhase: Hashable, Sendable {
    /// The list is shown and the user picks.
    case choosing
    /// An activity was chosen and reported; the broker is performing it.
    case running(SheetActivity)
    /// The broker reported a failure; the message stays until the user closes the sheet.
    /// `activity` is nil when the failure came before any choice.
    case failed(activity: SheetActivity?, message: String)
    /// The window is gone (completed, cancelled, dismissed or closed by the broker).
    case closed
}

/// The answer to `Show`, sent once per sheet.
public enum SheetResponse: Hashable, Sendable {
    case chosen(activityID: String)
    case cancelled
    case failed(message: String)
}

/// What the model asks of whoever owns the window and the pending `Show` call.
public enum SheetEffect: Hashable, Sendable {
    /// Reply to `Show` (at most once per sheet).
    case respond(SheetResponse)
    /// Close the window for good.
    case closeWindow
}

/// The job states the broker reports through `Update` (API.md §10).
public enum SheetJobState: String, Hashable, Sendable, CaseIterable {
    case running, completed, cancelled, failed
}
