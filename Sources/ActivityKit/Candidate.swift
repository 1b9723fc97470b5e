// Candidate: one alternative of perform.candidates, with the environment variables it needs.

/// An alternative way to perform (API.md §4 `candidates`): the first whose program is available and
/// whose `env` variables are all set wins.
public struct Candidate: Hashable, Sendable {
    /// What the candidate does.
    public enum Action: Hashable, Sendable {
        case exec(ExecSpec)
        case open(OpenSpec)
    }

    /// What the candidate does.
    public let action: Action
    /// Variables that must be set and non-empty in the broker's environment (e.g. `WAYLAND_DISPLAY`).
    public let env: [String]

    /// Builds a candidate.
    public init(action: Action, env: [String] = []) {
        self.action = action
        self.env = env
    }

    /// The candidate as a plain perform spec.
    public var performSpec: PerformSpec {
        switch action {
        case .exec(let e): return .exec(e)
        case .open(let o): return .open(o)
        }
    }
}
