// The one seam for GTK callbacks: Swift closures connected to GObject signals through user_data.
import CGtk

/// A closure kept alive by its signal connection: retained as `user_data`, released by the
/// connection's `GClosureNotify` when the object goes away.
///
/// The thunks capture nothing (a capturing `@convention(c)` closure crashes the Swift 6 compiler,
/// GTK-NOTES pitfall 2) and each returns exactly what its signal returns (pitfall 1: a void thunk
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

/// Connects GObject signals to Swift closures. Main thread only, like every GTK call.
@MainActor
enum GtkSignals {
    /// A signal with no arguments and no return value (`clicked`, `realize`).
    static func connect(
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
    static func connectHandled(
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
    static func connectKeyPressed(
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
}
