// FuzzTarget: one parser under fuzzing — its name, its entry point with the properties it checks, its dictionary.

/// A fuzz target: one parser of ActivityKit fed arbitrary bytes, with the properties that must
/// hold for every input besides "does not crash".
///
/// The same `check` runs under libFuzzer (`make fuzz`), under the deterministic
/// `MutationFuzzer` (the `make test` smoke run and builds without libFuzzer), and on every
/// file of the seed corpus, so a property violation found one way is a regression test the
/// other ways.
public struct FuzzTarget: Sendable {
    /// The name on the command line and the corpus directory's name (`Tests/FuzzCorpus/<name>`).
    public let name: String
    /// Tokens the mutation fuzzer inserts: the syntax the parser reacts to.
    public let dictionary: [[UInt8]]
    /// Feeds one input; returns whether the parser accepted it (the mutation fuzzer keeps
    /// accepted inputs to mutate further). Throws `FuzzFailure` when a property does not hold.
    public let check: @Sendable ([UInt8]) throws(FuzzFailure) -> Bool

    public init(
        name: String, dictionary: [String], check: @escaping @Sendable ([UInt8]) throws(FuzzFailure) -> Bool
    ) {
        self.name = name
        self.dictionary = dictionary.map { Array($0.utf8) }
        self.check = check
    }

    /// Every target, in the order `make fuzz` runs them.
    public static let all: [FuzzTarget] = [.manifest, .desktopEntry, .sharedURL, .template]

    /// The target called `name`, if any.
    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
