// FuzzFailure: a property that did not hold for one fuzz input.

/// A broken property: what should hold, and what was seen instead. The input itself is kept
/// by whoever ran the target (libFuzzer's crash file, `MutationFuzzer.Report`).
public struct FuzzFailure: Error, Sendable, CustomStringConvertible {
    /// The property, e.g. "a manifest error names the file".
    public let property: String
    /// What was seen.
    public let detail: String

    public init(_ property: String, _ detail: String) {
        self.property = property
        self.detail = detail
    }

    public var description: String { "\(property): \(detail)" }

    /// Throws unless `condition` holds.
    static func require(
        _ condition: Bool, _ property: String, _ detail: @autoclosure () -> String
    ) throws(FuzzFailure) {
        if !condition { throw FuzzFailure(property, detail()) }
    }
}
