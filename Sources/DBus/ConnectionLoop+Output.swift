// Output pacing: while output waits unsent, bulk calls wait unhandled, so a quiet client's answer goes out first.
import CDBus

/// The bus reads a few KB from us per pass. Replies handed to libdbus as fast as a flood's
/// calls are handled would wait in its single outgoing line (and the kernel's), and a quiet
/// client's answer sent after them would wait for the whole flood. So while more than
/// `IncomingLimits.outgoingBytes` wait unsent, the turn handles only prompt messages; bulk calls
/// stay in their sender's queue until the socket takes the output (the write watch wakes the
/// loop). Nothing is ever held back once produced: every message goes to libdbus in the order
/// it was sent, so each peer receives replies and signals in the order they were made.
extension Connection {
    /// Whether libdbus's unsent output is under `IncomingLimits.outgoingBytes` (on the loop).
    func outputFlows(_ connection: OpaquePointer) -> Bool {
        dbus_connection_get_outgoing_size(connection) < IncomingLimits.outgoingBytes
    }
}
