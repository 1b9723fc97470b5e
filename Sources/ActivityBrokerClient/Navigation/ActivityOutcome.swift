// ActivityOutcome: how a performed activity ended (API.md §6 job states and results).

/// How a performed activity ended: the final state of its job and the results it returned.
public struct ActivityOutcome: Hashable, Sendable {
    /// The final job states of API.md §6 (`running` is never an outcome).
    public enum State: String, Hashable, Sendable, CaseIterable {
        case completed
        case cancelled
        case failed
    }

    /// How it ended.
    public var state: State
    /// What the provider returned; when failed, `error` (an error name) and `message`.
    public var results: [String: String]

    /// Creates an outcome.
    public init(state: State, results: [String: String] = [:]) {
        self.state = state
        self.results = results
    }

    /// A completed outcome with no results.
    public static let completed = ActivityOutcome(state: .completed)
    /// A cancelled outcome with no results.
    public static let cancelled = ActivityOutcome(state: .cancelled)

    /// A failed outcome carrying an error name and a message a person can act on.
    public static func failed(error: String, message: String) -> ActivityOutcome {
        ActivityOutcome(state: .failed, results: ["error": error, "message": message])
    }
}
