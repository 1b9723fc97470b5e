// The one seam for GTK callbacks: Swift closures connected to GObject signals through user_data.
import CGtk

/// A closure kept alive by its signal connection: retained as `user_data`, released by the
/// connection's `GClosureNotify` when the object goes away.
///
/// The thunks capture nothing (a capturing `@convention(c)` closure crashes the Swift 6 compiler,
/// docs/ui-notes.md, pitfall 2) and each returns exactly what its signal returns (pitfall 1: a void thunk
/// on a boolean signal left GTK reading garbage).
private final class SignalBox<Handler> {
    let handler: Handler
    init(_ handler: Handler) { self.handler = handler }
}

private typealias VoidThunk = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
private typealias BoolThunk = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean
private typealias KeyThunk =
    @convention(c) (
        UnsafeMutableRawPointer?, guint, guint, GdkModifierType, UnsafeMutableRawPointer?
    ) -> gboolean
private typealias ScrollThunk =
    @convention(c) (UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> gboolean
private typealias WordThunk1 =
    @convention(c) (UnsafeMutableRawPointer?, UInt, UnsafeMutableRawPointer?) -> UInt
private typealias WordThunk2 =
    @convention(c) (UnsafeMutableRawPointer?, UInt, UInt, UnsafeMutableRawPointer?) -> UInt
private typealias WordThunk3 =
    @convention(c) (UnsafeMutableRawPointer?, UInt, UInt, UInt, UnsafeMutableRawPointer?) -> UInt

/// The arguments of a signal whose parameters are all pointers, integers, enums or booleans,
/// each received as one machine word (`connectWords`).
///
/// A 32-bit argument (an enum, a `gboolean`, a `guint`) arrives in a 64-bit register whose
/// upper half the C ABI leaves undefined: read it with `uint32(at:)`, never the whole word.
public struct SignalWords: Sendable {
    public let words: [UInt]

    /// The argument at `index` as a pointer (nil for NULL).
    public func pointer(at index: Int) -> UnsafeMutableRawPointer? {
        UnsafeMutableRawPointer(bitPattern: words[index])
    }

    /// The argument at `index` as a 32-bit value (an enum, `gboolean` or `guint`).
    public func uint32(at index: Int) -> UInt32 { UInt32(truncatingIfNeeded: words[index]) }
}

/// The handler behind a `connectWords` thunk (a free function: a thunk may not refer to `Self`).
private func wordBox(_ data: UnsafeMutableRawPointer) -> SignalBox<@MainActor (SignalWords) -> UInt> {
    Unmanaged<SignalBox<@MainActor (SignalWords) -> UInt>>.fromOpaque(data).takeUnretainedValue()
}

/// Connects GObject signals to Swift closures. Main thread only, like every GTK call.
@MainActor
public enum GtkSignals {
    /// A signal with no arguments and no return value (`clicked`, `realize`).
    public static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: @escaping @MainActor () -> Void
    ) {
        let thunk: VoidThunk = { _, data in
            guard let data else { return }
            let box = Unmanaged<SignalBox<@MainActor () -> Void>>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.handler() }
        }
        connectData(
            instance, signal, unsafeBitCast(thunk, to: GCallback.self), SignalBox(handler),
            release: releaseVoid)
    }

    /// A signal with no arguments that returns whether it was handled (`close-request`).
    public static func connectHandled(
        _ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: @escaping @MainActor () -> Bool
    ) {
        let thunk: BoolThunk = { _, data in
            guard let data else { return 0 }
            let box = Unmanaged<SignalBox<@MainActor () -> Bool>>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { box.handler() } ? 1 : 0
        }
        connectData(
            instance, signal, unsafeBitCast(thunk, to: GCallback.self), SignalBox(handler),
            release: releaseBool)
    }

    /// `GtkEventControllerKey::key-pressed`: the handler gets the key value and modifiers and
    /// returns whether it consumed the key.
    public static func connectKeyPressed(
        _ controller: UnsafeMutableRawPointer,
        _ handler: @escaping @MainActor (UInt32, GdkModifierType) -> Bool
    ) {
        let thunk: KeyThunk = { _, keyval, _, state, data in
            guard let data else { return 0 }
            let box = Unmanaged<SignalBox<@MainActor (UInt32, GdkModifierType) -> Bool>>.fromOpaque(data)
                .takeUnretainedValue()
            return MainActor.assumeIsolated { box.handler(keyval, state) } ? 1 : 0
        }
        connectData(
            controller, "key-pressed", unsafeBitCast(thunk, to: GCallback.self), SignalBox(handler),
            release: releaseKey)
    }

    /// `GtkEventControllerScroll::scroll`: the handler gets the deltas (x, y) and returns whether
    /// it consumed the event (else it goes on to the next controller or the parent widget).
    public static func connectScroll(
        _ controller: UnsafeMutableRawPointer, _ handler: @escaping @MainActor (Double, Double) -> Bool
    ) {
        let thunk: ScrollThunk = { _, dx, dy, data in
            guard let data else { return 0 }
            let box = Unmanaged<SignalBox<@MainActor (Double, Double) -> Bool>>.fromOpaque(data)
                .takeUnretainedValue()
            return MainActor.assumeIsolated { box.handler(dx, dy) } ? 1 : 0
        }
        connectData(
            controller, "scroll", unsafeBitCast(thunk, to: GCallback.self), SignalBox(handler),
            release: releaseScroll)
    }

    /// A signal with 1 to 3 arguments that are all word-sized or smaller (pointers, enums,
    /// integers, booleans; never `double`), such as `notify`, WebKit's `load-changed`,
    /// `decide-policy`, `load-failed` or `create`.
    ///
    /// The handler's result is returned in the C return register: `0`/`1` for a `gboolean`
    /// signal, a pointer's bit pattern for one returning an object, ignored for a void signal
    /// (so the thunk's return type always matches, pitfall 1).
    public static func connectWords(
        _ instance: UnsafeMutableRawPointer, _ signal: String, arguments: Int,
        _ handler: @escaping @MainActor (SignalWords) -> UInt
    ) {
        let callback: GCallback
        switch arguments {
        case 1:
            let thunk: WordThunk1 = { _, a, data in
                guard let data else { return 0 }
                return MainActor.assumeIsolated { wordBox(data).handler(SignalWords(words: [a])) }
            }
            callback = unsafeBitCast(thunk, to: GCallback.self)
        case 2:
            let thunk: WordThunk2 = { _, a, b, data in
                guard let data else { return 0 }
                return MainActor.assumeIsolated { wordBox(data).handler(SignalWords(words: [a, b])) }
            }
            callback = unsafeBitCast(thunk, to: GCallback.self)
        case 3:
            let thunk: WordThunk3 = { _, a, b, c, data in
                guard let data else { return 0 }
                return MainActor.assumeIsolated { wordBox(data).handler(SignalWords(words: [a, b, c])) }
            }
            callback = unsafeBitCast(thunk, to: GCallback.self)
        default:
            preconditionFailure("connectWords handles signals of 1 to 3 arguments, not \(arguments)")
        }
        connectData(instance, signal, callback, SignalBox(handler), release: releaseWords)
    }

    private static func connectData<Handler>(
        _ instance: UnsafeMutableRawPointer, _ signal: String, _ callback: GCallback,
        _ box: SignalBox<Handler>,
        release: GClosureNotify
    ) {
        let data = Unmanaged.passRetained(box).toOpaque()
        g_signal_connect_data(instance, signal, callback, data, release, GConnectFlags(rawValue: 0))
    }

    private static let releaseVoid: GClosureNotify = { data, _ in
        if let data { Unmanaged<SignalBox<@MainActor () -> Void>>.fromOpaque(data).release() }
    }
    private static let releaseBool: GClosureNotify = { data, _ in
        if let data { Unmanaged<SignalBox<@MainActor () -> Bool>>.fromOpaque(data).release() }
    }
    private static let releaseKey: GClosureNotify = { data, _ in
        if let data {
            Unmanaged<SignalBox<@MainActor (UInt32, GdkModifierType) -> Bool>>.fromOpaque(data).release()
        }
    }
    private static let releaseScroll: GClosureNotify = { data, _ in
        if let data { Unmanaged<SignalBox<@MainActor (Double, Double) -> Bool>>.fromOpaque(data).release() }
    }
    private static let releaseWords: GClosureNotify = { data, _ in
        if let data { Unmanaged<SignalBox<@MainActor (SignalWords) -> UInt>>.fromOpaque(data).release() }
    }
}
