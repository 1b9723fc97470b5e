// Availability: whether an activity can run here, with candidates resolved to the one that would run.

/// The result of checking an activity's requirements and program against an `Environment`.
public enum Availability: Hashable, Sendable {
    /// It can run; `resolved` is its perform spec with `candidates` replaced by the chosen one.
    case available(resolved: PerformSpec)
    /// It cannot run; one sentence saying why.
    case unavailable(reason: String)

    /// Whether it can run.
    public var isAvailable: Bool {
        if case .available = self { return true }
        return false
    }

    /// Checks requirements first, then what `perform` itself needs: `exec` its program, `dbus` its
    /// name, `candidates` the first candidate whose program and variables exist; `open` and
    /// `provider` need nothing.
    static func check(requires: Requirements, perform: PerformSpec, in env: some Environment) -> Availability
    {
        for e in requires.executables where !env.hasExecutable(e) {
            return .unavailable(reason: "requires the program '\(e)', which is not on PATH")
        }
        for n in requires.dbusNames where !env.hasBusName(n) {
            return .unavailable(
                reason: "requires the D-Bus name '\(n)', which has no owner and is not activatable")
        }
        switch perform {
        case .exec(let spec):
            if !env.hasExecutable(spec.program) {
                return .unavailable(reason: "its program '\(spec.program)' is not on PATH")
            }
            return .available(resolved: perform)
        case .open, .provider:
            return .available(resolved: perform)
        case .dbus(let name, _), .application(let name, _):
            if !env.hasBusName(name) {
                return .unavailable(reason: "its D-Bus service '\(name)' has no owner and is not activatable")
            }
            return .available(resolved: perform)
        case .candidates(let candidates):
            var problems: [String] = []
            for c in candidates {
                if case .exec(let spec) = c.action, !env.hasExecutable(spec.program) {
                    problems.append("'\(spec.program)' is not on PATH")
                    continue
                }
                if let missing = c.env.first(where: { !env.hasVariable($0) }) {
                    problems.append("\(candidateName(c)) needs \(missing) to be set")
                    continue
                }
                return .available(resolved: c.performSpec)
            }
            return .unavailable(reason: "none of its candidates can run: " + problems.joined(separator: ", "))
        }
    }

    private static func candidateName(_ c: Candidate) -> String {
        switch c.action {
        case .exec(let spec): return "'\(spec.program)'"
        case .open: return "opening a URL"
        }
    }
}
