// An HTTP proxy on loopback serving one page of a named site that redirects to a click measurement trigger.
import Foundation

/// `python3`'s `http.server` as the proxy of a `share browse` run (`http_proxy`,
/// `https_proxy`): `GET http://<site>/checkout` answers 302 to `trigger`, anything else 404,
/// and `CONNECT` (the https load of the trigger URL that follows) 403, so the load ends
/// there. The page thus belongs to a real site name without a name server or a certificate.
/// Readiness barrier: the port it prints.
public final class TriggerPageProxy: Sendable {
    public let port: Int
    private let process: ChildProcess

    static let script = """
        import http.server, sys
        page, target = sys.argv[1], sys.argv[2]
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                if self.path == page:
                    self.send_response(302)
                    self.send_header('Location', target)
                else:
                    self.send_response(404)
                self.send_header('Content-Length', '0')
                self.end_headers()
            def do_CONNECT(self):
                self.send_error(403)
            def log_message(self, *args):
                pass
        server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    /// Serves `page` (an absolute http URL) as a redirect to `trigger`.
    public init(page: String, trigger: String) async throws {
        process = try ChildProcess(executable: "python3", arguments: ["-c", Self.script, page, trigger])
        let line = try await process.nextLine { Int($0) != nil }
        port = Int(line) ?? 0
    }

    deinit { process.kill() }

    /// `environment` with both proxies set to this one.
    public func environment(_ environment: [String: String]) -> [String: String] {
        environment.merging(
            [
                "http_proxy": "http://127.0.0.1:\(port)", "https_proxy": "http://127.0.0.1:\(port)",
                "TERM": "dumb",
            ]
        ) { _, proxy in proxy }
    }
}
