// `--bus dbus-broker`: the bench's private bus run by dbus-broker instead of dbus-daemon, for comparing the storm on both.
import Foundation
import TestSupport

/// Which message bus the bench starts.
///
/// dbus-broker (package `dbus-broker`) is started through `TestBus`, with a launcher script
/// in place of the dbus-daemon executable: `TestBus` runs it as `daemon --nofork
/// --config-file=CONF --print-address=3`, and the script makes dbus-broker-launch fit that:
/// - dbus-broker-launch ignores `<listen>`: it takes its one listening socket by systemd
///   socket activation (`LISTEN_FDS`/`LISTEN_PID`). The script binds the config's socket,
///   listens, prints the address on fd 3 (the socket accepts from then on: connections wait in
///   its backlog until the broker is up), moves the socket to fd 3 and execs the launcher in
///   its own pid.
/// - The launcher refuses to start without the journal (`connect` to
///   `/run/systemd/journal/socket`; no systemd runs here). The script runs in a mount
///   namespace of its own (`unshare -m`) with a tmpfs on `/run/systemd` holding a datagram
///   socket of its own there; a child reads it and copies each `MESSAGE=` to stderr
///   (`TestBus.daemonOutput`), and dies with the launcher (`PR_SET_PDEATHSIG`).
/// - In `--scope user` the launcher connects to the session bus (for systemd's unit
///   signals, used only for activation, which the bench does not use): that is the bus
///   itself here (`DBUS_SESSION_BUS_ADDRESS`).
/// `TestBus.stop()` sends SIGTERM to the launcher, which stops its dbus-broker.
enum BusKind: String, CaseIterable {
    case dbusDaemon = "dbus-daemon"
    case dbusBroker = "dbus-broker"

    /// Starts a private bus of this kind.
    func start() throws -> TestBus {
        switch self {
        case .dbusDaemon: return try TestBus()
        case .dbusBroker:
            let script = try Self.brokerLauncherScript()
            // Read by then: the bus printed its address from the script's last step.
            defer {
                try? FileManager.default.removeItem(atPath: (script as NSString).deletingLastPathComponent)
            }
            return try TestBus(daemon: script)
        }
    }

    /// Writes the launcher script (and its Python part) into a directory of its own; its path.
    private static func brokerLauncherScript() throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-broker-launch") else {
            throw BenchFailure(
                "--bus dbus-broker needs /usr/bin/dbus-broker-launch (Debian package dbus-broker)")
        }
        let directory = try TemporaryDirectory(prefix: "bench-dbus-broker").path
        let python = directory + "/activate.py"
        let shell = directory + "/dbus-broker-bus"
        try activator.write(toFile: python, atomically: true, encoding: .utf8)
        try "#!/bin/sh\nexec unshare --mount --propagation private python3 \(python) \"$@\"\n"
            .write(toFile: shell, atomically: true, encoding: .utf8)
        chmod(shell, 0o755)
        return shell
    }

    private static let activator = #"""
        import ctypes, os, re, socket, subprocess, sys
        config = next(a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--config-file="))
        path = re.search(r"<listen>unix:path=([^<]+)</listen>", open(config).read()).group(1)
        subprocess.run(["mount", "-t", "tmpfs", "tmpfs", "/run/systemd"], check=True)
        os.makedirs("/run/systemd/journal")
        journal = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        journal.bind("/run/systemd/journal/socket")
        if os.fork() == 0:
            os.close(3)
            ctypes.CDLL(None).prctl(1, 15)  # PR_SET_PDEATHSIG, SIGTERM
            while True:
                for line in journal.recv(1 << 16).split(b"\n"):
                    if line.startswith(b"MESSAGE="):
                        sys.stderr.write(line[8:].decode(errors="replace") + "\n")
                        sys.stderr.flush()
        journal.close()
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        listener.listen(4096)
        os.write(3, ("unix:path=%s\n" % path).encode())
        os.dup2(listener.fileno(), 3)
        listener.close()
        os.environ.update(LISTEN_FDS="1", LISTEN_PID=str(os.getpid()), DBUS_SESSION_BUS_ADDRESS="unix:path=" + path)
        os.execvp("dbus-broker-launch", ["dbus-broker-launch", "--scope", "user", "--config-file=" + config])
        """#
}
