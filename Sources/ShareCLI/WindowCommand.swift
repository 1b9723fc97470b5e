// `share open URL` in a graphical session: the desktop's browser window (Broker1.Browse), waited for until it closes.
import ActivityBrokerClient
import DBus
import Foundation

/// Opens the broker's browser window on a web page and returns when the window is gone. `share
/// browse` stays the terminal session; `share open` uses the window when the session is
/// graphical and the broker can show one, and the terminal session otherwise.
enum WindowCommand {
    /// Whether the session is graphical (`WAYLAND_DISPLAY` or `DISPLAY` set), as for the sheet.
    static func isGraphical(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        ["WAYLAND_DISPLAY", "DISPLAY"].contains { !(environment[$0] ?? "").isEmpty }
    }

    /// Opens the window and waits for it to close: exit 0. Nil when there is no window to be
    /// had (no broker, or it answers `Unavailable`: no browser service, no display of its
    /// own), so that the caller browses in the terminal instead. Ctrl-C closes the window
    /// and exits 130, also while the window is still being opened: the handler is in place
    /// before `Browse` is sent (a Ctrl-C as the window appeared killed `share` with SIGINT).
    static func run(url: URL, bus: BusAddress) async throws -> ShareExit? {
        let broker: BrokerProxy
        do {
            broker = try BrokerProxy.connect(bus: bus)
        } catch {
            return nil
        }
        let interrupted = Interrupted()
        let interrupt = InterruptHandler(flushing: broker) {
            if let session = interrupted.set() { Task { try? await session.close() } }
        }
        defer { interrupt.stop() }
        let session: BrowsingSession
        do {
            session = try await broker.browse(url: url)
        } catch .unavailable, .unreachable {
            return interrupted.isSet ? .cancelled : nil
        } catch {
            if interrupted.isSet { return .cancelled }
            throw ShareFailure(error)
        }
        // A Ctrl-C before the session was known closes it now.
        if interrupted.opened(session) { try? await session.close() }
        await session.finished()
        // A window the user closed is done; one Ctrl-C closed is a cancel (API.md §8: 130).
        return interrupted.isSet ? .cancelled : .completed
    }

    /// Whether Ctrl-C closed the window, and the session once it is known: whichever of the
    /// two comes second closes it. `@unchecked Sendable`: its fields are only touched under `lock`.
    private final class Interrupted: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        private var session: BrowsingSession?

        /// Ctrl-C (on the interrupt handler's queue): the session to close, if it is known yet.
        func set() -> BrowsingSession? {
            lock.withLock {
                value = true
                return session
            }
        }

        /// The session is open: whether a Ctrl-C came first, so that it must be closed now.
        func opened(_ session: BrowsingSession) -> Bool {
            lock.withLock {
                self.session = session
                return value
            }
        }

        var isSet: Bool { lock.withLock { value } }
    }
}
