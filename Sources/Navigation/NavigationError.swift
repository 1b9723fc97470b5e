// NavigationError: why a navigation session operation failed.

import Foundation

/// Why an operation of a `NavigationSession` failed.
public enum NavigationError: Error, CustomStringConvertible {
    /// `start()` has not been called yet.
    case notStarted
    /// The session has finished (Done or Open in Browser); it does nothing more.
    case finished
    /// The page did not load. The entry is in the history all the same, as a browser
    /// shows an error page.
    case load(PageLoadError)
    /// The activity is excluded, or is no activity the session knows of.
    case notOffered(id: String)
    /// The session has no broker, so only the app's own activities can be performed.
    case noBroker
    /// The broker failed; the error is the broker proxy's.
    case broker(any Error)
    /// The system opener failed.
    case opener(any Error)

    public var description: String {
        switch self {
        case .notStarted: "the session has not started: call start() first"
        case .finished: "the session has finished"
        case .load(let error): error.description
        case .notOffered(let id): "the activity '\(id)' is not offered in this session"
        case .noBroker: "no activity broker is connected"
        case .broker(let error): "the activity broker failed: \(error)"
        case .opener(let error): "the URL could not be handed to the system: \(error)"
        }
    }
}
