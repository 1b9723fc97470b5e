// A loopback HTTPS server with its own test CA, recording each POST it receives (click measurement reports).
import Foundation
import TestSupport

/// `python3`'s `http.server` behind TLS with a certificate for `sites`, signed by a CA made
/// with `openssl` for this test alone. Each request is recorded as one JSON line (method,
/// path, Host, header names, body, arrival time in seconds since the epoch) in `requests`.
/// Readiness barrier: the port it prints. While `hold()` is in force a request, once recorded,
/// waits for `release()` (at most 60 s) before it is answered: a report on its way.
final class AttributionReportServer: Sendable {
    let directory: String
    let caFile: String
    let port: Int
    private let process: ChildProcess

    var requestsFile: String { directory + "/requests.jsonl" }

    static let script = """
        import http.server, json, ssl, sys, time
        import os
        out, cert, key, hold = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get('Content-Length', 0))).decode()
                record = {'method': 'POST', 'path': self.path, 'host': self.headers.get('Host'),
                          'headers': [k.lower() for k in self.headers.keys()], 'body': body,
                          'time': time.time()}
                with open(out, 'a') as f:
                    f.write(json.dumps(record) + '\\n')
                deadline = time.time() + 60
                while os.path.exists(hold) and time.time() < deadline:
                    time.sleep(0.05)
                self.send_response(200)
                self.send_header('Content-Length', '0')
                self.end_headers()
            def log_message(self, *args):
                pass
        server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    init(directory: String, sites: [String]) async throws {
        self.directory = directory
        caFile = directory + "/ca.pem"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let san = "subjectAltName=" + sites.map { "DNS:\($0)" }.joined(separator: ",")
        try san.write(toFile: directory + "/san.ext", atomically: true, encoding: .utf8)
        try Self.script.write(toFile: directory + "/server.py", atomically: true, encoding: .utf8)
        let make = """
            set -e
            cd "\(directory)"
            openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj '/CN=Attribution Test CA' 2>/dev/null
            openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj '/CN=\(sites[0])' 2>/dev/null
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile san.ext 2>/dev/null
            """
        let openssl = try ChildProcess(executable: "/bin/sh", arguments: ["-c", make])
        let status = try await openssl.exit(deadline: .seconds(60))
        guard status == .exited(0) else { throw TimeoutError("openssl failed: \(openssl.standardError)") }
        process = try ChildProcess(
            executable: "python3",
            arguments: [
                directory + "/server.py", directory + "/requests.jsonl", directory + "/server.pem",
                directory + "/server.key", directory + "/hold",
            ])
        let line = try await process.nextLine { Int($0) != nil }
        port = Int(line) ?? 0
    }

    deinit { process.kill() }

    /// From now on each request waits, once recorded, until `release()`.
    func hold() { FileManager.default.createFile(atPath: directory + "/hold", contents: nil) }

    /// Lets held requests (and later ones) be answered.
    func release() { try? FileManager.default.removeItem(atPath: directory + "/hold") }

    /// The broker flags that send reports for `sites` here and trust the test CA.
    func brokerArguments(for sites: [String]) -> [String] {
        ["--attribution-ca", caFile]
            + sites.flatMap { ["--attribution-connect-to", "\($0):443:127.0.0.1:\(port)"] }
    }

    /// The requests received so far.
    var requests: [[String: Any]] {
        guard let text = try? String(contentsOfFile: requestsFile, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}
