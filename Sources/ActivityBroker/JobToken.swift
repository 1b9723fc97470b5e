// The 128 random bits that name a job in its path: made, spelled as a path element and read back.
import ActivityBrokerInterface
import DBus
import Glibc

/// A job's name: 128 random bits, the last element of its path (`…/job/<32 hex digits>`), so
/// that no client can guess another caller's job (API.md §6). Held as a number, 16 bytes, so
/// that the job table keys running and finished jobs by it without a string each.
struct JobToken: Hashable, Sendable {
    let bits: UInt128

    /// Fresh random bits from the system's generator.
    static func random() -> JobToken {
        var generator = SystemRandomNumberGenerator()
        return JobToken(bits: generator.next())
    }

    /// The token of `path` when it is a job's path: the broker's job parent and 32 lowercase
    /// hex digits; nil otherwise.
    init?(path: ObjectPath) {
        let text = path.rawValue
        guard text.utf8.count == Job1.parentPath.rawValue.utf8.count + 1 + 32,
            text.hasPrefix(Job1.parentPath.rawValue + "/")
        else { return nil }
        let hex = text.utf8.suffix(32)
        guard hex.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
            let bits = UInt128(Substring(hex), radix: 16)
        else { return nil }
        self.bits = bits
    }

    init(bits: UInt128) { self.bits = bits }

    /// 32 lowercase hex digits, zero-padded (written digit by digit: `String(_:radix:)` on a
    /// 128-bit number was a visible part of a `Perform`'s work).
    var pathElement: String {
        String(unsafeUninitializedCapacity: 32) { buffer in
            var rest = bits
            for index in stride(from: 31, through: 0, by: -1) {
                buffer[index] = Self.hexDigits[Int(truncatingIfNeeded: rest & 0xF)]
                rest >>= 4
            }
            return 32
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The job's object path.
    var path: ObjectPath { Job1.path(token: pathElement) }
}

extension JobToken {
    /// Fresh tokens for one owner (the job table, on its loop), read from the system's
    /// generator (getrandom(2), through arc4random_buf) 256 at a time: `random()` made two
    /// system calls per job (one per 64 bits), on the path of every `Perform`. The bits are the
    /// same generator's, each used once; only when they are read differs.
    struct Source {
        private var buffer = [UInt128](repeating: 0, count: 256)
        private var next = 256

        /// The next unused token.
        mutating func token() -> JobToken {
            if next == buffer.count { refill() }
            defer { next += 1 }
            return JobToken(bits: buffer[next])
        }

        private mutating func refill() {
            // glibc's arc4random_buf (2.36) is getrandom(2), retried until the buffer is full.
            buffer.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, $0.count) }
            next = 0
        }
    }
}
