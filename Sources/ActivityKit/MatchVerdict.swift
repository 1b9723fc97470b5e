// MatchVerdict: the outcome of evaluating a match rule, with the sentence that explains it.

/// Whether a match rule accepts a URL, and one sentence naming the rule that decided.
public enum MatchVerdict: Hashable, Sendable {
    /// Every rule holds, e.g. "matches: scheme 'https' is one of http, https; any host; any path".
    case matches(String)
    /// A rule fails, e.g. "host 'example.org' matches none of *.youtube.com, youtu.be".
    case rejects(String)

    /// Whether the rule accepts the URL.
    public var applies: Bool {
        if case .matches = self { return true }
        return false
    }

    /// The explaining sentence.
    public var reason: String {
        switch self {
        case .matches(let r), .rejects(let r): return r
        }
    }
}
