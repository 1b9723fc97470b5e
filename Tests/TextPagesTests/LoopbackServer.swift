// LoopbackServer: a python3 http.server on 127.0.0.1 serving the pages the navigation tests load.

import Foundation
import TestSupport

/// A loopback HTTP server, run as a python3 child on an ephemeral port of 127.0.0.1.
///
/// Spawned with TestSupport's `ChildProcess` (clean signal state, output on pipes, never
/// our stderr). Readiness barrier: the child prints `ready PORT` once it listens. Its stdin
/// is a pipe from us and it exits when that pipe closes, so it dies with the test process
/// even if `stop()` is never reached.
final class LoopbackServer: Sendable {
    let child: ChildProcess
    let port: Int

    /// The URL of `path` on the server, e.g. `url("/page/a")`.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Starts the server and waits (the standard deadline) for its `ready PORT` line without
    /// blocking a thread: Swift concurrency has as many threads as cores, and a test that blocks
    /// one while python starts stalls every other test's awaits (measured: 2.4 s without a
    /// single resumption while this and a private bus started blocking).
    static func start() async throws -> LoopbackServer {
        let temporary = try TemporaryDirectory(prefix: "nav-server")
        defer { temporary.remove() }
        let script = temporary.file("server.py")
        try serverScript.write(toFile: script, atomically: true, encoding: .utf8)
        let child = try ChildProcess(executable: "python3", arguments: ["-u", script], standardInput: .pipe)
        do {
            let line = try await child.nextLine { $0.hasPrefix("ready ") }
            guard let port = Int(line.dropFirst("ready ".count)) else { throw ServerError.notReady(line) }
            return LoopbackServer(child: child, port: port)
        } catch {
            child.kill()
            _ = try? await child.exit()
            throw error
        }
    }

    private init(child: ChildProcess, port: Int) {
        self.child = child
        self.port = port
    }

    /// Kills the server and waits (without blocking a thread) until it is reaped.
    func stop() async {
        child.kill()
        _ = try? await child.exit()
        child.closeStandardInput()
    }

    enum ServerError: Error {
        case notReady(String)
    }
}

/// The server: routes for titles, canonical links, og tags, links, redirect chains, 404,
/// a slow page, huge pages and an article.
private let serverScript = #"""
    import http.server, os, sys, threading, time, zlib

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

        def raw(self, content_type, data):
            self.send_response(200)
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
            elif path == "/gzip-bomb":
                # A few MiB on the wire, 4 GiB once decompressed.
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                packer = zlib.compressobj(6, zlib.DEFLATED, 31)
                zeros = b"a" * (2 * 1024 * 1024)
                try:
                    for _ in range(2048):
                        self.wfile.write(packer.compress(zeros))
                    self.wfile.write(packer.flush())
                except (BrokenPipeError, ConnectionResetError):
                    pass
            elif path == "/latin1":
                self.raw("text/html; charset=ISO-8859-1", b"<title>Caf\xe9 cr\xe8me</title>")
            elif path == "/meta-1252":
                self.raw("text/html", b"<html><head><meta charset='windows-1252'><title>\x80 5 \x93quoted\x94</title>")
            elif path == "/meta-sjis":
                self.raw("text/html", b'<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'
                         + b"<title>" + "日本語のページ".encode("shift_jis") + b"</title>")
            elif path == "/utf8-header-wins":
                self.raw("text/html; charset=utf-8", "<meta charset=iso-8859-1><title>Ünïcode</title>".encode("utf-8"))
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
        # socketserver listens with a backlog of 5. The suite's tests connect all at once
        # (dozens of loads in the same millisecond), one python thread accepts them, and the
        # kernel drops the SYNs past the backlog: each dropped connect waits out TCP's
        # retransmission backoff (1 s, then 2, 4, 8 s). With 5, a third of the suite's loads
        # waited a second or more and 4 redirects took 3 s; with 1024, none. Linux caps this
        # at net.core.somaxconn (4096 since 5.4).
        request_queue_size = 1024

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

    /// The server's start, shared by every user while one is running or starting: the actor
    /// is re-entered while a start is awaited, and the callers meanwhile await the same one.
    private var server: Task<LoopbackServer, any Error>?
    private var users = 0

    /// The running server, started if nobody uses it.
    func acquire() async throws -> LoopbackServer {
        let start = server ?? Task { try await LoopbackServer.start() }
        server = start
        users += 1
        do {
            return try await start.value
        } catch {
            users -= 1
            // A failed start is not kept: the next caller tries again.
            if server == start { server = nil }
            throw error
        }
    }

    /// Gives the server back; the last user stops it.
    func release() async {
        users -= 1
        guard users == 0, let start = server else { return }
        server = nil
        await (try? start.value)?.stop()
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
