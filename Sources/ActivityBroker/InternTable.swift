// Values that many rows repeat (callers, activity ids), each kept once and named by a small number while rows use it.

/// A table of distinct values, each named by a 32-bit number for as long as something holds
/// it: `FinishedJobs` keeps thousands of rows naming a few callers and activities, and a
/// number is 4 bytes where a `String` is 16 (plus, for a long one, a reference to keep alive).
///
/// Counted: `retain` adds one holder of a value (storing it the first time), `release` drops
/// one, and the last release forgets the value and frees its number for the next new value.
/// So the table holds only what some row still names, however many callers come and go over
/// a broker's life. Numbers are small (at most the number of distinct values held at once).
struct InternTable<Value: Hashable> {
    /// By number; nil for a freed number.
    private var values: [Value?] = []
    private var holders: [UInt32] = []
    private var numbers: [Value: UInt32] = [:]
    /// Freed numbers, reused before the table grows.
    private var freed: [UInt32] = []

    /// Distinct values held.
    var count: Int { numbers.count }

    /// The number of `value`, one more holder of it.
    mutating func retain(_ value: Value) -> UInt32 {
        if let number = numbers[value] {
            holders[Int(number)] += 1
            return number
        }
        let number: UInt32
        if let reused = freed.popLast() {
            number = reused
            values[Int(number)] = value
            holders[Int(number)] = 1
        } else {
            precondition(values.count < Int(UInt32.max), "more distinct values than 32-bit numbers")
            number = UInt32(values.count)
            values.append(value)
            holders.append(1)
        }
        numbers[value] = number
        return number
    }

    /// One holder fewer of `number`; the last one forgets its value.
    mutating func release(_ number: UInt32) {
        let index = Int(number)
        precondition(holders[index] > 0, "released a number no one holds")
        holders[index] -= 1
        guard holders[index] == 0, let value = values[index] else { return }
        values[index] = nil
        numbers[value] = nil
        if numbers.isEmpty {
            // Nothing held: give the storage back rather than keep a burst's size.
            self = InternTable()
        } else {
            freed.append(number)
        }
    }

    /// The value of a held number.
    subscript(number: UInt32) -> Value {
        guard let value = values[Int(number)] else { preconditionFailure("number \(number) is not held") }
        return value
    }
}
