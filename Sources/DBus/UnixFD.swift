// A file descriptor carried by a D-Bus value (`h`), owned by the value: closed when the last holder lets go.
#if canImport(Glibc)
    import Glibc
#endif

/// The descriptor of a `Value.unixFD`, owned: closed when the last value holding it goes.
///
/// Why an object: libdbus hands out a fresh duplicate each time a received `h` is read
/// (`dbus_message_iter_get_basic`), and the reader must close it. Kept as a bare number, every
/// descriptor a peer sent — one per `h` in any call, signal or reply, an index repeated as often
/// as the peer likes — stayed open, until the process could open no file, spawn no child and
/// receive no message with descriptors. Owned, nothing received can outlive its values.
///
/// To keep a descriptor beyond the values, `duplicate()` it. Sending one: libdbus duplicates
/// it again while appending, so the value may go as soon as the message is built.
/// Equal only to itself (two holders of one number cannot both own it).
public final class UnixFD: Hashable, Sendable, CustomStringConvertible {
    /// The descriptor, or -1 when none was received (see `ValueCoding.maxReceivedDescriptors`).
    public let rawValue: Int32

    /// Takes ownership of `descriptor` (-1 for none).
    public init(owning descriptor: Int32) { rawValue = descriptor }

    deinit { if rawValue >= 0 { close(rawValue) } }

    /// No descriptor: what a received `h` past the budget decodes as (one object for all).
    static let absent = UnixFD(owning: -1)

    /// Whether a descriptor is held.
    public var isValid: Bool { rawValue >= 0 }

    /// A new descriptor for the same open file (close-on-exec), the caller's to close; nil when
    /// none is held or `fcntl` fails.
    public func duplicate() -> Int32? {
        guard rawValue >= 0 else { return nil }
        let copy = fcntl(rawValue, F_DUPFD_CLOEXEC, 0)
        return copy >= 0 ? copy : nil
    }

    public static func == (a: UnixFD, b: UnixFD) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { "fd \(rawValue)" }
}
