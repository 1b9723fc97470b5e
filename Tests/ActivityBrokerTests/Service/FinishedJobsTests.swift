// The afterlife's table alone: rows read back whole, expire oldest first, grow and shrink, wrap around, and agree with a dictionary.
import ActivityBrokerInterface
import ActivityFuzzing
import ActivityKit
import TestSupport
import Testing

@testable import ActivityBroker

@Suite struct FinishedJobsTests {
    static let quick = try! ActivityID("org.test.quick")
    static let other = try! ActivityID("org.test.other")

    static func row(
        _ expiry: UInt64, state: JobState = .completed, activity: ActivityID? = quick, caller: String = ":1.7"
    )
        -> FinishedJobs.Row
    {
        FinishedJobs.Row(state: state, activityID: activity, caller: caller, expiry: expiry)
    }

    /// A token whose probe starts at index entry `home` of a table of `capacity` slots (the
    /// index has twice as many entries and probes from the token's low bits), told apart by `tag`.
    static func token(home: Int, capacity: Int, tag: Int) -> JobToken {
        JobToken(bits: UInt128(tag) * UInt128(capacity * 2) + UInt128(home))
    }

    @Test(
        "A row reads back as it was added: every state, with and without an activity, its caller and expiry")
    func rowsReadBack() {
        var table = FinishedJobs()
        let rows: [(JobToken, FinishedJobs.Row)] = [
            (JobToken(bits: 1), Self.row(100, state: .completed)),
            (JobToken(bits: 2), Self.row(100, state: .failed, activity: Self.other, caller: ":1.9")),
            (
                JobToken(bits: 3),
                Self.row(101, state: .cancelled, activity: nil, caller: ":1.1234567890123456789")
            ),
            (JobToken(bits: 4), Self.row(102, state: .choosing, activity: nil)),
            (JobToken(bits: .max), Self.row(103, state: .running)),
        ]
        for (token, row) in rows { table.insert(token, row) }
        for (token, row) in rows { #expect(table.row(token, at: 50) == row) }
        #expect(table.row(JobToken(bits: 5), at: 50) == nil, "a token never added")
        #expect(table.count == 5)
    }

    @Test("Past maximumRows the oldest row goes early: the table never holds more, and the newest rows answer")
    func boundedByCount() async {
        await offPool {
            var table = FinishedJobs()
            let extra = 5
            for number in 0..<(FinishedJobs.maximumRows + extra) {
                table.insert(
                    JobToken(bits: UInt128(number) &* 0x9E37_79B9_7F4A_7C15 | 1 << 100), Self.row(1_000))
            }
            #expect(table.count == FinishedJobs.maximumRows)
            #expect(table.capacity == FinishedJobs.maximumRows)
            #expect(table.row(JobToken(bits: 0 | 1 << 100), at: 0) == nil, "the oldest went early")
            let newest = UInt128(FinishedJobs.maximumRows + extra - 1) &* 0x9E37_79B9_7F4A_7C15 | 1 << 100
            #expect(table.row(JobToken(bits: newest), at: 0) != nil)
            let oldestKept = UInt128(extra) &* 0x9E37_79B9_7F4A_7C15 | 1 << 100
            #expect(table.row(JobToken(bits: oldestKept), at: 0) != nil)
        }
    }

    @Test("A row is gone from its expiry on, swept or not")
    func expiredIsGone() {
        var table = FinishedJobs()
        table.insert(JobToken(bits: 1), Self.row(100))
        #expect(table.row(JobToken(bits: 1), at: 99) != nil)
        #expect(table.row(JobToken(bits: 1), at: 100) == nil)
        #expect(table.count == 1, "not swept yet")
        #expect(table.sweep(at: 100) == nil)
        #expect(table.count == 0)
        #expect(table.row(JobToken(bits: 1), at: 0) == nil)
    }

    @Test("A sweep removes the expired rows oldest first and tells the next expiry")
    func sweepsInOrder() {
        var table = FinishedJobs()
        for n in 1...10 { table.insert(JobToken(bits: UInt128(n)), Self.row(UInt64(n) * 10)) }
        #expect(table.sweep(at: 5) == 10, "nothing expired")
        #expect(table.count == 10)
        #expect(table.sweep(at: 35) == 40)
        #expect(table.count == 7)
        // Read before the rows' expiry, so only the sweep can have removed them.
        for n in 1...3 { #expect(table.row(JobToken(bits: UInt128(n)), at: 0) == nil, "row \(n) swept") }
        for n in 4...10 { #expect(table.row(JobToken(bits: UInt128(n)), at: 0)?.expiry == UInt64(n) * 10) }
        #expect(table.sweep(at: 100) == nil)
        #expect(table.count == 0)
    }

    @Test(
        "A full ring doubles and keeps every row; sweeping shrinks it, and an empty table frees its storage")
    func growsAndShrinks() {
        var table = FinishedJobs()
        #expect(table.capacity == 0)
        let minimum = FinishedJobs.minimumCapacity
        for n in 0..<minimum { table.insert(JobToken(bits: UInt128(n)), Self.row(UInt64(n) + 1)) }
        #expect(table.capacity == minimum, "exactly full")
        table.insert(JobToken(bits: UInt128(minimum)), Self.row(UInt64(minimum) + 1))
        #expect(table.capacity == minimum * 2)
        for n in (minimum + 1)..<(minimum * 8) {
            table.insert(JobToken(bits: UInt128(n)), Self.row(UInt64(n) + 1))
        }
        #expect(table.capacity == minimum * 8)
        for n in 0..<(minimum * 8) {
            #expect(table.row(JobToken(bits: UInt128(n)), at: 0)?.expiry == UInt64(n) + 1)
        }

        // Down to an eighth: the ring halves (at a quarter), and the rows left still answer.
        #expect(table.sweep(at: UInt64(minimum * 7)) == UInt64(minimum * 7) + 1)
        #expect(table.count == minimum)
        #expect(table.capacity == minimum * 4)
        for n in (minimum * 7)..<(minimum * 8) {
            #expect(table.row(JobToken(bits: UInt128(n)), at: 0) != nil)
        }
        #expect(table.sweep(at: .max) == nil)
        #expect(table.capacity == 0)
    }

    @Test("The ring wraps around its end without growing, and rows on both sides answer")
    func ringWraps() {
        var table = FinishedJobs()
        let minimum = FinishedJobs.minimumCapacity
        for n in 0..<minimum { table.insert(JobToken(bits: UInt128(n)), Self.row(UInt64(n))) }
        #expect(table.sweep(at: 9) == 10)
        for n in minimum..<(minimum + 10) { table.insert(JobToken(bits: UInt128(n)), Self.row(UInt64(n))) }
        #expect(table.capacity == minimum, "ten slots freed, ten reused")
        #expect(table.count == minimum)
        for n in 10..<(minimum + 10) {
            #expect(table.row(JobToken(bits: UInt128(n)), at: 0)?.expiry == UInt64(n))
        }
        #expect(table.sweep(at: UInt64(minimum + 1)) == UInt64(minimum + 2))
        for n in (minimum + 2)..<(minimum + 10) {
            #expect(table.row(JobToken(bits: UInt128(n)), at: 0) != nil)
        }
    }

    @Test(
        "Tokens probing from the index's last entry wrap to its start, and survive the removal of the first of them"
    )
    func indexWraps() {
        var table = FinishedJobs()
        let capacity = FinishedJobs.minimumCapacity
        let last = capacity * 2 - 1
        // Four tokens with the same home, the last entry: three of them sit past the end.
        let colliding = (0..<4).map { Self.token(home: last, capacity: capacity, tag: $0) }
        // One whose home is entry 1, pushed on by the wrapped ones.
        let pushed = Self.token(home: 1, capacity: capacity, tag: 9)
        for (n, token) in colliding.enumerated() { table.insert(token, Self.row(UInt64(n) + 1)) }
        table.insert(pushed, Self.row(10))
        for (n, token) in colliding.enumerated() { #expect(table.row(token, at: 0)?.expiry == UInt64(n) + 1) }
        #expect(table.row(pushed, at: 0)?.expiry == 10)
        // Removing the one at the last entry moves the chain back across the wrap.
        #expect(table.sweep(at: 1) == 2)
        #expect(table.row(colliding[0], at: 0) == nil)
        for (n, token) in colliding.enumerated().dropFirst() {
            #expect(table.row(token, at: 0)?.expiry == UInt64(n) + 1)
        }
        #expect(table.row(pushed, at: 0)?.expiry == 10)
        #expect(table.sweep(at: 3) == 4)
        #expect(table.row(colliding[3], at: 0)?.expiry == 4)
        #expect(table.row(pushed, at: 0)?.expiry == 10)
        // A token with the same home that was never added is not found, the chain being long.
        #expect(table.row(Self.token(home: last, capacity: capacity, tag: 7), at: 0) == nil)
    }

    @Test("A token added again answers with its newer row until that one expires")
    func sameTokenTwice() {
        var table = FinishedJobs()
        table.insert(JobToken(bits: 42), Self.row(10, state: .failed))
        table.insert(JobToken(bits: 43), Self.row(15))
        table.insert(JobToken(bits: 42), Self.row(20, state: .completed))
        #expect(table.row(JobToken(bits: 42), at: 0)?.state == .completed)
        #expect(table.sweep(at: 10) == 15)
        #expect(
            table.row(JobToken(bits: 42), at: 11)?.expiry == 20, "the older row's sweep leaves the newer one")
        #expect(table.sweep(at: 20) == nil)
    }

    @Test(
        "Against a dictionary: thousands of rows with crowded homes, swept at random instants, answer alike")
    func agreesWithADictionary() async {
        await offPool {
            var generator = SplitMix64(seed: 0x5eed)
            var table = FinishedJobs()
            var model: [JobToken: FinishedJobs.Row] = [:]
            var added: [JobToken] = []
            var now: UInt64 = 0
            let callers = (0..<7).map { ":1.\($0)" }
            for step in 0..<20_000 {
                now += generator.next() % 4
                // Every other token among the last 64 homes of any index up to 65,536 entries: long
                // probe chains that cross each other and the index's end.
                let random = generator.next()
                let low = step % 2 == 0 ? 0xFFFF - random % 64 : random & 0xFFFF
                let token = JobToken(
                    bits: UInt128(generator.next()) << 64 | UInt128(generator.next() >> 16) << 16
                        | UInt128(low))
                let row = Self.row(
                    now + 800, state: [.completed, .failed, .cancelled][step % 3],
                    activity: step % 5 == 0 ? nil : Self.quick,
                    caller: callers[Int(generator.next() % 7)])
                table.insert(token, row)
                model[token] = row
                added.append(token)
                if generator.next() % 8 == 0 {
                    let next = table.sweep(at: now)
                    model = model.filter { $0.value.expiry > now }
                    #expect(next == model.values.map(\.expiry).min())
                    #expect(table.count == model.count)
                }
                if step % 997 == 0 {
                    for token in added.suffix(1200) {
                        #expect(table.row(token, at: now) == Self.live(model[token], at: now))
                    }
                }
            }
            for token in added.suffix(1200) {
                #expect(table.row(token, at: now) == Self.live(model[token], at: now))
            }
            #expect(table.sweep(at: .max) == nil)
            #expect(table.capacity == 0)
        }
    }

    /// `row` while its afterlife lasts at `now`.
    static func live(_ row: FinishedJobs.Row?, at now: UInt64) -> FinishedJobs.Row? {
        guard let row, now < row.expiry else { return nil }
        return row
    }
}

@Suite struct InternTableTests {
    @Test("One number per distinct value, kept while held, freed by the last release and reused")
    func countsHolders() {
        var table = InternTable<String>()
        let a = table.retain(":1.1")
        let b = table.retain(":1.2")
        #expect(a != b)
        #expect(table.retain(":1.1") == a)
        #expect(table[a] == ":1.1" && table[b] == ":1.2")
        #expect(table.count == 2)
        table.release(a)
        #expect(table[a] == ":1.1", "one holder left")
        table.release(a)
        #expect(table.count == 1)
        let c = table.retain(":1.3")
        #expect(c == a, "the freed number is reused")
        #expect(table[c] == ":1.3" && table[b] == ":1.2")
        table.release(b)
        table.release(c)
        #expect(table.count == 0)
        #expect(table.retain(":1.4") == 0, "an empty table starts over")
    }
}
