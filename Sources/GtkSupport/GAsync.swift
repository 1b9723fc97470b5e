// GIO's asynchronous calls with a Swift completion: the callback's state travels in user_data.
import CGtk

/// The completion of one GIO `…_async` call, kept alive until GIO calls back (once).
private final class AsyncBox {
    let completion: @MainActor (OpaquePointer?) -> Void
    init(_ completion: @escaping @MainActor (OpaquePointer?) -> Void) { self.completion = completion }
}

/// Starts GIO-style asynchronous calls (`GAsyncReadyCallback`) with a Swift closure. Main
/// thread only: the default main context calls back on the main thread.
@MainActor
public enum GAsync {
    /// Calls `start` with the callback and user data to pass to an `…_async` function;
    /// `completion` gets the `GAsyncResult` to hand to its `…_finish`.
    ///
    /// The callback captures nothing (docs/ui-notes.md, pitfall 2); the box is released when it runs.
    public static func start(
        _ start: (GAsyncReadyCallback, UnsafeMutableRawPointer) -> Void,
        completion: @escaping @MainActor (OpaquePointer?) -> Void
    ) {
        let data = Unmanaged.passRetained(AsyncBox(completion)).toOpaque()
        let callback: GAsyncReadyCallback = { _, result, data in
            guard let data else { return }
            let box = Unmanaged<AsyncBox>.fromOpaque(data).takeRetainedValue()
            MainActor.assumeIsolated { box.completion(result) }
        }
        start(callback, data)
    }

    /// The message of a `GError` out-parameter, freeing it; nil when no error was set.
    public static func take(_ error: inout UnsafeMutablePointer<GError>?) -> String? {
        guard let pointer = error else { return nil }
        defer {
            g_error_free(pointer)
            error = nil
        }
        return pointer.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}
