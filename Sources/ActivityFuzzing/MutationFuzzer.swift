// MutationFuzzer: a deterministic, dependency-free fuzzer for builds without libFuzzer and for the make test smoke run.

/// Mutates seed inputs with a seeded generator: bit flips, random and "interesting" bytes,
/// insertions and deletions, duplicated ranges, dictionary tokens and splices of two inputs.
/// Not coverage-guided (libFuzzer is, in `make fuzz`); inputs the parser accepts join a
/// bounded pool, so mutations reach past the first syntax check.
public struct MutationFuzzer {
    /// What a run did, and the first failing input if any.
    public struct Report: Sendable {
        public var inputs = 0
        public var accepted = 0
        public var failure: (input: [UInt8], failure: FuzzFailure)?
    }

    /// The longest input produced.
    public var maxLength = 16 * 1024
    /// How many accepted inputs are kept for further mutation.
    public var poolLimit = 512

    private let target: FuzzTarget
    private var random: SplitMix64
    private var seeds: [[UInt8]]
    private var pool: [[UInt8]] = []

    /// Bytes parsers tend to special-case: NUL, controls, DEL, UTF-8 lead and continuation
    /// bytes, and the bytes that never occur in UTF-8 (the template target's separators).
    private static let interesting: [UInt8] = [0x00, 0x09, 0x0A, 0x0D, 0x1B, 0x20, 0x22, 0x25, 0x5C, 0x7F, 0x80, 0xC2, 0xE2, 0xF0, 0xFE, 0xFF]

    public init(target: FuzzTarget, seeds: [[UInt8]], seed: UInt64) {
        self.target = target
        self.seeds = seeds.isEmpty ? [[]] : seeds
        random = SplitMix64(seed: seed)
    }

    /// Runs every seed as it is, then `runs` mutated inputs; stops at the first failure.
    public mutating func run(runs: Int, progress: ((Report) -> Void)? = nil) -> Report {
        var report = Report()
        for index in 0..<(seeds.count + runs) {
            let candidate = index < seeds.count ? seeds[index] : mutated()
            report.inputs += 1
            do {
                if try target.check(candidate) {
                    report.accepted += 1
                    remember(candidate)
                }
            } catch {
                report.failure = (candidate, error)
                return report
            }
            if report.inputs % 100_000 == 0 { progress?(report) }
        }
        return report
    }

    private mutating func remember(_ input: [UInt8]) {
        if pool.count < poolLimit {
            pool.append(input)
        } else {
            pool[Int.random(in: 0..<poolLimit, using: &random)] = input
        }
    }

    private mutating func pick() -> [UInt8] {
        if !pool.isEmpty, Bool.random(using: &random) { return pool.randomElement(using: &random)! }
        return seeds.randomElement(using: &random)!
    }

    /// One to eight mutations of a seed or pooled input.
    mutating func mutated() -> [UInt8] {
        var bytes = pick()
        for _ in 0..<Int.random(in: 1...8, using: &random) { mutate(&bytes) }
        if bytes.count > maxLength { bytes.removeLast(bytes.count - maxLength) }
        return bytes
    }

    private mutating func position(in bytes: [UInt8], inclusive: Bool = false) -> Int {
        let upper = bytes.count + (inclusive ? 1 : 0)
        return upper == 0 ? 0 : Int.random(in: 0..<upper, using: &random)
    }

    private mutating func mutate(_ bytes: inout [UInt8]) {
        switch Int.random(in: 0..<10, using: &random) {
        case 0 where !bytes.isEmpty:
            bytes[position(in: bytes)] ^= 1 << UInt8.random(in: 0..<8, using: &random)
        case 1 where !bytes.isEmpty:
            bytes[position(in: bytes)] = UInt8.random(in: 0...255, using: &random)
        case 2:
            bytes.insert(Self.interesting.randomElement(using: &random)!, at: position(in: bytes, inclusive: true))
        case 3 where !bytes.isEmpty:
            let start = position(in: bytes)
            let end = min(bytes.count, start + Int.random(in: 1...16, using: &random))
            bytes.removeSubrange(start..<end)
        case 4 where !bytes.isEmpty:
            let start = position(in: bytes)
            let end = min(bytes.count, start + Int.random(in: 1...64, using: &random))
            bytes.insert(contentsOf: bytes[start..<end], at: position(in: bytes, inclusive: true))
        case 5...6 where !target.dictionary.isEmpty:
            bytes.insert(contentsOf: target.dictionary.randomElement(using: &random)!, at: position(in: bytes, inclusive: true))
        case 7 where !target.dictionary.isEmpty && !bytes.isEmpty:
            let token = target.dictionary.randomElement(using: &random)!
            let start = position(in: bytes)
            bytes.replaceSubrange(start..<min(bytes.count, start + token.count), with: token)
        case 8:
            let other = pick()
            let cut = position(in: bytes, inclusive: true)
            let otherCut = other.isEmpty ? 0 : Int.random(in: 0...other.count, using: &random)
            bytes = Array(bytes[..<cut]) + other[otherCut...]
        case 9 where !bytes.isEmpty:
            bytes.removeLast(Int.random(in: 1...bytes.count, using: &random))
        default:
            bytes.append(UInt8.random(in: 0...255, using: &random))
        }
    }
}
