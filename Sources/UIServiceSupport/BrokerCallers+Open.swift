// The UI services' opening call (Sheet1.Show, Browser1.Open): checked and decoded on the D-Bus loop, run on the main thread.
import DBus
import Dispatch

extension BrokerCallers {
    /// The handler of a call that opens something (`Show`, `Open`): the caller is checked
    /// (`authorize`), the body decoded by `decode` (what it throws is the reply), the calling
    /// broker watched so that `registry` closes what it opened when it leaves the bus, then `open`
    /// runs on the main thread with the request, the caller's unique name and the responder,
    /// whose to answer.
    public func openHandler<Request: Sendable>(
        _ registry: some SessionRegistry,
        decode: @escaping @Sendable ([Value]) throws(DBusError) -> Request,
        open: @escaping @MainActor @Sendable (Request, _ broker: String, Responder) -> Void
    ) -> MethodHandler {
        .deferred { call, responder in
            // Counted until the main thread has run it (or it was refused): see `exitIfIdle`.
            self.quietExit.began()
            self.authorize(call, responder, refused: { self.quietExit.ended() }) {
                let request: Request
                do {
                    request = try decode(call.body)
                } catch {
                    self.quietExit.ended()
                    return responder.fail(error)
                }
                let broker = call.sender
                self.watch(broker) { registry.closeAll(openedBy: broker) }
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { open(request, broker, responder) }
                    self.quietExit.ended()
                }
            }
        }
    }
}
