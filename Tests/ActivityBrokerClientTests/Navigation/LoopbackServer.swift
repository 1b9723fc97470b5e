// LoopbackServer: a python3 http.server on 127.0.0.1 serving the pages the navigation tests load.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback HTTP server for one test, run as a python3 child on an ephemeral port.
///
/// Readiness barrier: the child prints `ready PORT` on a pipe once it listens. It gets its
/// stdin from a pipe and exits when that pipe closes, so it dies with the test process
/// even if `stop()` is never reached; its stderr goes to /dev/null so it never holds the
/// test runner's. Spawned with an empty signal mask and default handlers (Swift Testing's
/// workers block SIGTERM and SIGCHLD and a child would inherit that).
final class LoopbackServer: Sendable {
    let pid: pid_t
    let port: Int
    private let stdinWrite: Int32
    private let stdoutRead: Int32

    /// The URL of `path` on the server, e.g. `url("/page/a")`.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Starts the server and waits (at most 20 s) for its `ready PORT` line.
    static func start() throws -> LoopbackServer {
        let script = FileManager.default.temporaryDirectory
            .appendingPathComponent("nav-server-\(getpid())-\(UUID().uuidString).py")
        try serverScript.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }

        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        // pipe2 is not visible from Swift; set close-on-exec right after (only the dup2'd
        // copies must reach the child).
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw ServerError.spawn(errno) }
        for fd in input + output { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        let argv = ["python3", "-u", script.path]
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, "python3", &actions, &attributes, &cArguments, environ)
        close(input[0])
        close(output[1])
        guard result == 0 else {
            close(input[1])
            close(output[0])
            throw ServerError.spawn(result)
        }
        let line = readLine(from: output[0], timeoutMilliseconds: 20_000)
        guard let line, line.hasPrefix("ready "), let port = Int(line.dropFirst(6)) else {
            kill(pid, SIGKILL)
            _ = SystemReaper.wait(pid)
            close(input[1])
            close(output[0])
            throw ServerError.notReady(line ?? "no output")
        }
        return LoopbackServer(pid: pid, port: port, stdinWrite: input[1], stdoutRead: output[0])
    }

    private init(pid: pid_t, port: Int, stdinWrite: Int32, stdoutRead: Int32) {
        self.pid = pid
        self.port = port
        self.stdinWrite = stdinWrite
        self.stdoutRead = stdoutRead
    }

    /// Kills the server and reaps it.
    func stop() {
        kill(pid, SIGKILL)
        _ = SystemReaper.wait(pid)
        close(stdinWrite)
        close(stdoutRead)
    }

    enum ServerError: Error {
        case spawn(Int32)
        case notReady(String)
    }

    /// Reads one line (without the newline) from `fd`, waiting at most `timeoutMilliseconds`.
    private static func readLine(from fd: Int32, timeoutMilliseconds: Int32) -> String? {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(Double(timeoutMilliseconds) / 1000)
        while true {
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, remaining)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return nil }
            var byte: UInt8 = 0
            guard read(fd, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}

/// Waits for children the tests spawned.
enum SystemReaper {
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        return status
    }
}

/// The server: routes for titles, canonical links, og tags, links, redirect chains, 404,
/// a slow page, huge pages and an article.
private let serverScript = #"""
    import http.server, os, sys, threading, time

    HUGE = 6 * 1024 * 1024

    PAGE_A = """<!DOCTYPE html>
    <html><head>
    <title>  Page &amp; A  </title>
    <meta property="og:title" content="OG &quot;A&quot;">
    <meta property="og:description" content="About A">
    <meta property="og:site_name" content="Loopback">
    <link rel="canonical" href="/canonical/a">
    <script>var s = "<a href='/not-a-link'>no</a>";</script>
    <style>a { color: red }</style>
    </head><body>
    <!-- <a href="/commented">hidden</a> -->
    <a href="/page/b">Page B</a>
    <a href=/page/c>Page <b>C</b></a>
    <a href="javascript:alert(1)">JS</a>
    <a href="data:text/html,hi">Data</a>
    <a href="/page/b">Page B again</a>
    <a href="mailto:someone@example.org">Mail</a>
    <a href="http://localhost:PORT/elsewhere">Elsewhere</a>
    <a href="../page/d?x=1&amp;y=2#frag">D</a>
    </body></html>
    """

    def simple(title, body=""):
        return "<html><head><title>%s</title></head><body>%s</body></html>" % (title, body)

    ARTICLE = """<html><head><title>A Story</title></head><body>
    <nav><p>Home</p><p>About</p></nav>
    <article><h1>A Story</h1><p>First paragraph of the story.</p><p>Second   paragraph,
    with a line break.</p></article>
    <footer><p>Copyright</p></footer>
    </body></html>"""

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def page(self, status, body, content_type="text/html; charset=utf-8"):
            data = body.replace("PORT", str(self.server.server_address[1])).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def redirect(self, status, location):
            self.send_response(status)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_GET(self):
            path = self.path
            if path == "/page/a":
                self.page(200, PAGE_A)
            elif path.startswith("/page/"):
                name = path[len("/page/"):].split("?")[0]
                self.page(200, simple("Page " + name.upper(), '<a href="/page/a">back to A</a>'))
            elif path == "/canonical/other":
                self.page(200, '<html><head><title>Other canonical</title><link rel="canonical" href="http://localhost:PORT/story"></head></html>')
            elif path == "/chain":
                self.redirect(301, "/chain/2")
            elif path == "/chain/2":
                self.redirect(302, "http://127.0.0.1:PORT/chain/3".replace("PORT", str(self.server.server_address[1])))
            elif path == "/chain/3":
                self.redirect(307, "/page/final")
            elif path == "/loop":
                self.redirect(302, "/loop")
            elif path == "/to-ftp":
                self.redirect(302, "ftp://127.0.0.1/file")
            elif path == "/redirect-missing":
                self.redirect(302, "/missing")
            elif path == "/missing":
                self.page(404, simple("Not Found"))
            elif path == "/error":
                self.page(500, simple("Server Error"))
            elif path == "/slow":
                time.sleep(5)
                self.page(200, simple("Slow"))
            elif path == "/huge":
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(HUGE))
                self.end_headers()
                self.stream(HUGE)
            elif path == "/huge-chunked":
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                self.stream(HUGE)
            elif path == "/article":
                self.page(200, ARTICLE)
            elif path == "/plain":
                self.page(200, "<title>not html</title>", "text/plain")
            else:
                self.page(404, simple("Not Found"))

        def stream(self, total):
            block = b"<p>" + b"x" * 65529 + b"</p>"
            sent = 0
            try:
                while sent < total:
                    self.wfile.write(block)
                    sent += len(block)
            except (BrokenPipeError, ConnectionResetError):
                pass

    class Server(http.server.ThreadingHTTPServer):
        daemon_threads = True

    def watch_stdin():
        # The test holds the other end: when it closes (the test process ended), stop.
        sys.stdin.buffer.read()
        os._exit(0)

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=watch_stdin, daemon=True).start()
    print("ready %d" % server.server_address[1], flush=True)
    server.serve_forever()
    """#

/// Shares one loopback server among the tests that run at the same time: the first user
/// starts it, the last one stops and reaps it. Starting a python server per test on a
/// 2-core machine made every test wait for a dozen interpreters.
actor LoopbackServerPool {
    static let shared = LoopbackServerPool()

    private var server: LoopbackServer?
    private var users = 0

    /// The running server, started if nobody uses it. No suspension inside, so two
    /// callers cannot both start one.
    func acquire() throws -> LoopbackServer {
        if let server {
            users += 1
            return server
        }
        let started = try LoopbackServer.start()
        server = started
        users += 1
        return started
    }

    /// Gives the server back; the last user stops it.
    func release() {
        users -= 1
        if users == 0 {
            server?.stop()
            server = nil
        }
    }
}

/// Runs `body` with the shared loopback server, giving it back afterwards even when `body` throws.
@discardableResult
func withLoopbackServer<T: Sendable>(_ body: (LoopbackServer) async throws -> T) async throws -> T {
    let server = try await LoopbackServerPool.shared.acquire()
    do {
        let result = try await body(server)
        await LoopbackServerPool.shared.release()
        return result
    } catch {
        await LoopbackServerPool.shared.release()
        throw error
    }
}
