// Quiet: whether a connection has nothing on its way, checked with its loop held — for a service's idle exit.
import CDBus

#if canImport(Glibc)
    import Glibc
#endif

extension Connection {
    /// Runs `body` on the loop, holding it, when the connection is quiet: no message read and
    /// not yet handled, nothing parsed or unread in libdbus or on the socket, no call of ours
    /// awaiting its reply. Returns whether it ran. Not on the loop (it waits for the loop).
    ///
    /// For a D-Bus-activated service that exits when idle: exiting inside `body`, no message
    /// can be taken in between, so a call that reached the process is never dropped unread.
    /// (One the bus has routed but not yet written to the socket still can: that window is
    /// the bus's own, microseconds long.) A handler that hands a call to another thread must
    /// count it itself; this sees only the loop.
    @discardableResult
    public func whenQuiet(_ body: () -> Void) -> Bool {
        precondition(!isOnLoop, "whenQuiet waits for the loop and cannot run on it")
        return queue.sync {
            guard isQuiet else { return false }
            body()
            return true
        }
    }

    /// See `whenQuiet`. On the loop.
    var isQuiet: Bool {
        guard let connection = raw, !closing else { return true }
        guard incoming.isEmpty, pendingCalls.isEmpty,
            dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_COMPLETE
        else { return false }
        var fd: Int32 = -1
        guard dbus_connection_get_socket(connection, &fd) != 0 else { return true }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 0
    }
}
