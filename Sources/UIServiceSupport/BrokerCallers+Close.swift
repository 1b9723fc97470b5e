// The UI services' `Close(o handle)` handler: checked on the D-Bus loop, applied on the main thread.
import DBus
import Dispatch

extension BrokerCallers {
    /// The handler of `Close(o handle)` (Sheet1 and Browser1 alike): the caller is checked
    /// (`authorize`), then `registry` closes the handle on the main thread and the call is
    /// answered once it did. A handle with nothing open is the registry's to ignore.
    public func closeHandler(_ registry: some SessionRegistry) -> MethodHandler {
        .deferred { call, responder in
            self.authorize(call, responder) {
                guard let handle = call.body[0].objectPath else {
                    return responder.fail(DBusError.invalidArgs("handle"))
                }
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { registry.close(handle) }
                    responder.reply()
                }
            }
        }
    }
}
