// Output pacing: a flood's replies wait in our own line, so a quiet client's answer goes out first.
import CDBus

/// The bus reads a few KB from us per pass. Replies handed to libdbus all at once would wait
/// in its single outgoing line (and the kernel's), and a quiet client's answer sent after a
/// flood's would wait for the whole flood. So while more than `IncomingLimits.outgoingBytes`
/// are unsent, replies produced by bulk calls are held here, in order, and handed over as the
/// socket takes them; prompt answers go straight out. A destination with held messages gets
/// its next ones held too, so each peer still receives its replies in the order of its calls.
extension Connection {
    /// Whether `message` must wait behind held output (on the loop).
    func holdsBack(_ message: Message) -> Bool {
        guard let connection = raw else { return false }
        if !heldDestinations.isEmpty, let destination = message.destination, heldDestinations[destination] != nil {
            return true
        }
        return handlingBulk && (!heldOutput.isEmpty || !outputFlows(connection))
    }

    /// Queues `message` behind the held output.
    func hold(_ message: Message) {
        heldOutput.append(message)
        if let destination = message.destination { heldDestinations[destination, default: 0] += 1 }
    }

    /// Hands held messages to libdbus while the socket keeps up (all of them when `all`, at close).
    func releaseOutput(_ connection: OpaquePointer, all: Bool = false) {
        while let message = heldOutput.first, all || outputFlows(connection) {
            _ = heldOutput.removeFirst()
            if let destination = message.destination {
                let left = (heldDestinations[destination] ?? 1) - 1
                heldDestinations[destination] = left > 0 ? left : nil
            }
            if dbus_connection_send(connection, message.raw, nil) == 0 { log("libdbus could not send a message") }
        }
    }

    /// Whether libdbus's unsent output is under `IncomingLimits.outgoingBytes`.
    func outputFlows(_ connection: OpaquePointer) -> Bool {
        dbus_connection_get_outgoing_size(connection) < IncomingLimits.outgoingBytes
    }
}
