// One loop turn: read what the bus has sent, queue it per sender, handle the queues fairly.
import CDBus

#if canImport(Glibc)
    import Glibc
#endif

/// The bus delivers every peer's messages on one socket in arrival order. Handled in that order,
/// one peer's burst of 10,000 calls would delay every other peer's call by the whole burst. So
/// a turn reads ahead of handling — everything the socket holds, up to `IncomingLimits` — into
/// per-sender queues, and before each message it handles, it reads again: a call sent behind a
/// storm is seen within one message's time and `SenderQueues` serves it next if it only reads.
extension Connection {
    /// Takes one message from libdbus's dispatch (our filter); false for kinds we do not know.
    ///
    /// Two kinds of message are handled here as they arrive instead of being queued:
    /// - The bus driver's (`org.freedesktop.DBus`: NameOwnerChanged, NameAcquired/NameLost, the
    ///   replies to our calls of it) are a barrier. Queued, they would be served one per visit
    ///   behind other senders, and a peer's call read *after* a NameOwnerChanged could be handled
    ///   before it: a client that saw a provider take its name and then asks us about it would
    ///   get the state from before (name watches, `knownOwners`). Handled on arrival, everything
    ///   read later sees them; what other peers sent earlier may see them too, which is no
    ///   different from those calls taking longer to reach us. They are cheap bookkeeping. The
    ///   exception is the peers a NameOwnerChanged names: their own queued messages were sent
    ///   before the change and go first (a departing peer's calls, a signal from a name's old
    ///   owner that `knownOwners` would no longer accept).
    /// - libdbus's own Local.Disconnected (no sender): it comes after everything read before
    ///   it. Queued replies and signals go first; queued calls are dropped, as `teardown` would
    ///   drop them: their callers can never hear back, so nothing should start on their behalf.
    ///
    /// Both run whatever the turn's limits (`holdsIncoming`, output pacing, `perTurn`).
    func receive(_ message: Message) -> Bool {
        switch message.type {
        case DBUS_MESSAGE_TYPE_METHOD_CALL, DBUS_MESSAGE_TYPE_METHOD_RETURN, DBUS_MESSAGE_TYPE_ERROR,
            DBUS_MESSAGE_TYPE_SIGNAL:
            break
        default:
            return false
        }
        guard let sender = message.sender else {
            for earlier in incoming.removeAll() where earlier.type != DBUS_MESSAGE_TYPE_METHOD_CALL {
                _ = handle(earlier)
            }
            return handle(message)
        }
        guard sender != BusName.bus.rawValue else {
            for peer in ownersNamed(message) {
                for earlier in incoming.removeAll(from: peer) { _ = handle(earlier) }
            }
            return handle(message)
        }
        incoming.append(message, from: sender, prompt: isPrompt(message))
        return true
    }

    /// Reads, queues and handles up to `IncomingLimits.perTurn` messages. On the loop, inside
    /// `dispatching`.
    func runTurn(_ connection: OpaquePointer) {
        var handled = 0
        while !closing {
            readAvailable(connection)
            drain(connection)
            updateBackPressure()
            // While output waits unsent, bulk calls wait unhandled (ConnectionLoop+Output.swift).
            guard !holdsIncoming, handled < IncomingLimits.perTurn,
                let message = incoming.next(bulk: outputFlows(connection))
            else {
                break
            }
            handled += 1
            _ = handle(message)
        }
        updateBackPressure()
    }

    /// Whether the turn has work it can do now: messages it may handle, or messages still in
    /// libdbus. Otherwise the watches wake the loop (new input, or the socket taking output).
    func hasWork(_ connection: OpaquePointer) -> Bool {
        if !holdsIncoming, incoming.hasPrompt || (!incoming.isEmpty && outputFlows(connection)) { return true }
        // Not `!= COMPLETE`: NEED_MEMORY would keep the loop spinning on a dispatch that cannot run.
        return incoming.count < incomingBound
            && dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS
    }

    /// Has libdbus read what the socket holds, while the backlog is under its bound. Reads
    /// cost a few µs a message, handling tens: reading first is what lets fairness see a call.
    private func readAvailable(_ connection: OpaquePointer) {
        for entry in watches.values where entry.reads && !entry.cancelled {
            var reads = 0
            // Each dbus_watch_handle reads about 4 KB; 64 of them keep one turn's reading short.
            while !readPaused, !closing, !entry.cancelled, reads < 64, incoming.count < incomingBound,
                dbus_watch_get_enabled(entry.watch) != 0, Self.hasInput(entry.fd)
            {
                reads += 1
                // dbus_watch_handle may free the watch: keep the entry and the connection alive.
                dbus_connection_ref(connection)
                withExtendedLifetime(entry) { _ = dbus_watch_handle(entry.watch, DBUS_WATCH_READABLE.rawValue) }
                dbus_connection_unref(connection)
                drain(connection)
            }
        }
    }

    /// Moves what libdbus has parsed into `incoming` (through the filter), up to the bound;
    /// past it, messages wait in libdbus (bounded by `IncomingLimits.bytes`).
    private func drain(_ connection: OpaquePointer) {
        var status = dbus_connection_get_dispatch_status(connection)
        while status == DBUS_DISPATCH_DATA_REMAINS, !closing, incoming.count < incomingBound {
            status = dbus_connection_dispatch(connection)
        }
    }

    /// Pauses reading at the bound and resumes it once half the backlog is handled.
    private func updateBackPressure() {
        let pause = readPaused ? incoming.count > incomingBound / 2 : incoming.count >= incomingBound
        guard pause != readPaused else { return }
        readPaused = pause
        for entry in watches.values { entry.update(readPaused: pause) }
        let backlog = Backlog(
            paused: pause, buffered: incoming.count, highWater: incoming.highWater, bound: incomingBound)
        for handler in backlogHandlers { handler(backlog) }
    }

    /// Whether `fd` has input (or a hangup) now; poll(2) with no wait.
    private static func hasInput(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0 && entry.revents != 0
    }

    /// Whether `message` may be handled before other peers' queued calls: replies, signals and
    /// calls of methods marked `readOnly` (and Peer, Introspectable, Properties.Get/GetAll).
    private func isPrompt(_ message: Message) -> Bool {
        guard message.type == DBUS_MESSAGE_TYPE_METHOD_CALL else { return true }
        if dbus_message_has_interface(message.raw, InterfaceName.peer.rawValue) != 0
            || dbus_message_has_interface(message.raw, InterfaceName.introspectable.rawValue) != 0
        {
            return true
        }
        if dbus_message_has_interface(message.raw, InterfaceName.properties.rawValue) != 0 {
            return dbus_message_has_member(message.raw, "Set") == 0
        }
        guard let path = message.path, let table = objects[ObjectPath(unchecked: path)] else { return false }
        let member = MemberName(unchecked: message.member ?? "")
        let interface = message.interface
        let method = table.lazy.filter { interface == nil || $0.name.rawValue == interface }
            .compactMap { $0.methodsByName[member] }.first
        return method?.readOnly ?? false
    }

    /// The unique names a NameOwnerChanged names (old and new owner) that still have messages
    /// queued; none for any other message.
    private func ownersNamed(_ message: Message) -> [String] {
        guard !incoming.isEmpty, message.type == DBUS_MESSAGE_TYPE_SIGNAL,
            dbus_message_has_member(message.raw, "NameOwnerChanged") != 0
        else { return [] }
        let body = message.body
        guard body.count == 3 else { return [] }
        return [body[1].string, body[2].string].compactMap { $0 }.filter { !$0.isEmpty }
    }
}
