#!/usr/bin/python3
# The loopback web site the browser window tests load: plain http, or https with the
# certificate and key given (a self-signed one for the certificate-error test).
# Prints "ready PORT" once listening; exits when its stdin closes (the test process ended).
import http.server
import os
import ssl
import sys
import threading
import urllib.parse

PAGES = {
    "/page/a": ("Page A", '<a id="next" href="/page/b" style="display:block;position:fixed;inset:0;'
                'font-size:40px">Go to page B</a>'),
    "/page/b": ("Page B", "<p>This is page B.</p>"),
    "/blank": ("New Window Link", '<a target="_blank" href="/page/b" style="display:block;position:fixed;'
               'inset:0;font-size:40px">Page B in a new window</a>'),
    "/mail": ("Mail Link", '<a href="mailto:someone@example.org" style="display:block;position:fixed;inset:0;'
              'font-size:40px">Write to someone</a>'),
    "/script": ("no script", '<script src="/blocked.js"></script><p>A page with a script.</p>'),
    "/article": ("A Long Article", "<article><h1>The Reading Room</h1>" + "".join(
        f"<p>Paragraph {i}: the reading room is a quiet place where long text is laid out in a "
        f"single comfortable column, with generous line spacing and nothing else around it.</p>"
        for i in range(1, 7)) + "</article>"),
    "/shop": ("Shop", '<img src="/redirect-to?https%3A%2F%2Fsource.example%2F.well-known%2F'
              'private-click-measurement%2Ftrigger-attribution%2F05"><p>Thank you for your order.</p>'),
    "/ordinary": ("Ordinary", '<img src="/redirect?img"><p>A page with an ordinary redirect.</p>'),
    "/dark": ("Dark Page", "<p>A page that follows the colour scheme.</p>"),
    # Long enough to scroll; its title says where it is, so a test can wait for the scroll.
    "/long": ("Long Page", "<script>addEventListener('scroll', () => { document.title = scrollY <= 0 ? "
              "'Top' : scrollY + innerHeight >= document.documentElement.scrollHeight - 1 ? 'Bottom' : "
              "'Scrolled'; });</script>" + "".join(
                  f"<p style='font-size:32px'>Line {i} of a long page.</p>" for i in range(1, 121))),
}
SCRIPTS = {"/blocked.js": 'document.title = "script ran";'}


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, status, body, kind="text/html; charset=utf-8", headers=()):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        for key, value in headers:
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/redirect":
            return self.send(302, "", headers=[("Location", "/page/b")])
        if path == "/redirect-to":  # the query is the target (click measurement tests)
            return self.send(302, "", headers=[("Location", urllib.parse.unquote(self.path.split("?", 1)[1]))])
        if path in SCRIPTS:
            return self.send(200, SCRIPTS[path], "application/javascript")
        if path in PAGES:
            title, body = PAGES[path]
            html = (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title}</title>'
                    f'<meta name="color-scheme" content="light dark"></head><body>{body}</body></html>')
            return self.send(200, html)
        self.send(404, "<title>Not Found</title>not found")


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if len(sys.argv) == 3:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"ready {server.server_address[1]}", flush=True)
    sys.stdin.read()
    os._exit(0)


main()
