// Environment: what the domain may ask about the machine (programs, bus names, variables).

/// The machine as the availability rules see it. The service supplies a cached implementation
/// (PATH lookups, bus names, its own environment); tests supply a fixed one. Calls must be cheap.
public protocol Environment {
    /// Whether `name` is an executable on PATH, or an absolute path to an executable.
    func hasExecutable(_ name: String) -> Bool
    /// Whether the well-known bus name has an owner or is activatable.
    func hasBusName(_ name: String) -> Bool
    /// Whether the variable is set and non-empty in the broker's environment.
    func hasVariable(_ name: String) -> Bool
}
