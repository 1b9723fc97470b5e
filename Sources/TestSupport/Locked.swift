// A value behind a lock, for state that handlers on other threads update and tests read.
import Foundation

/// A mutable value shared between threads (e.g. a property's backing store in a test service,
/// captured by `@Sendable` getters and setters).
public final class Locked<Wrapped>: @unchecked Sendable {
    // `stored` is only touched with `lock` held.
    private let lock = NSLock()
    private var stored: Wrapped

    public init(_ value: Wrapped) { stored = value }

    /// The current value (a copy).
    public var value: Wrapped {
        get { withLock { $0 } }
        set { withLock { $0 = newValue } }
    }

    /// Runs `body` with exclusive access.
    public func withLock<R>(_ body: (inout Wrapped) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }
}
