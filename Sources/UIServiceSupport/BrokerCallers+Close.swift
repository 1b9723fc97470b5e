// The UI services' `Close(o handle)` handler: checked on the D-Bus loop, applied on the main thread.
import DBus
import Dispatch

extension BrokerCallers {
    /// The handler of `Close(o handle)` (Sheet1 and Browser1 alike): the caller is checked
    /// (`authorize`), then `close` runs on the main thread and the call is answered once it ran.
    /// A handle with nothing open is the registry's to ignore.
    public func closeHandler(_ close: @escaping @MainActor @Sendable (ObjectPath) -> Void) -> MethodHandler {
        .deferred { call, responder in
            self.authorize(call, responder) {
                guard let handle = call.body[0].objectPath else {
                    return responder.fail(DBusError.invalidArgs("handle"))
                }
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { close(handle) }
                    responder.reply()
                }
            }
        }
    }
}
