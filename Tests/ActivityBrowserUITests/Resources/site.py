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
    # Tries to launch other apps without a click: a hidden frame's src, a frame redirected to
    # another scheme, a timer setting location. The top half is a mailto: link, the bottom half a
    # link redirected to another scheme (a click, but a redirect). The timer holds off for 2 s
    # after a click: each of its navigations cancels one still pending, and on a loaded machine
    # the clicked link's round trip to the redirect took longer than a tick.
    "/launch": ("Launcher", '<iframe style="display:none" src="steam://frame"></iframe>'
                '<iframe style="display:none" src="/redirect-to?framejump%3A%2F%2Fx"></iframe>'
                "<script>let clicked = 0; addEventListener('click', () => { clicked = Date.now(); }, true);"
                "setInterval(() => { if (Date.now() - clicked > 2000) location.href = 'timerapp://tick'; }, 100);"
                "</script>"
                '<a href="mailto:someone@example.org" style="display:block;position:fixed;left:0;right:0;'
                'top:0;height:50%;font-size:40px">Write to someone</a>'
                '<a href="/redirect-to?clickjump%3A%2F%2Fx" style="display:block;position:fixed;left:0;'
                'right:0;bottom:0;height:50%;font-size:40px">Open the app</a>'),
    # A download link clicked by the page's script as it loads.
    "/download-link": ("Download Link", '<a id="d" download href="/attachment">Download</a>'
                       "<script>document.getElementById('d').click();</script>"),
    # Asks for fullscreen on a click anywhere.
    "/fullscreen": ("Fullscreen", '<div style="position:fixed;inset:0;font-size:40px" onclick="'
                    "document.documentElement.requestFullscreen().then(() => { document.title = 'full'; }, "
                    "() => { document.title = 'refused'; })\">Go fullscreen</div>"),
    # Asks to lock the pointer on a click anywhere; the title says what came of it.
    "/pointer-lock": ("Pointer Lock", "<script>document.addEventListener('pointerlockchange', () => { "
                      "document.title = document.pointerLockElement ? 'locked' : 'unlocked'; }); "
                      "document.addEventListener('pointerlockerror', () => { document.title = 'no lock'; });"
                      "</script><div style=\"position:fixed;inset:0;font-size:40px\" "
                      "onclick=\"document.body.requestPointerLock()\">Lock the pointer</div>"),
    # A title over the broker's 4 KiB limit for a shared title: 3000 two-byte characters.
    "/huge-title": ("Huge " + "\u00e9" * 3000, "<p>A page with a huge title.</p>"),
    # A title far longer than a window title: 1000 'x's after a marker.
    "/long-title": ("Long " + "x" * 1000, "<p>A page with a long title.</p>"),
}
SCRIPTS = {"/blocked.js": 'document.title = "script ran";'}
# /slow holds its answer until /release is asked for (the pending-load tests).
RELEASE = threading.Event()


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
        if path == "/attachment":  # a file the browser must not save
            return self.send(200, "downloaded data\n", "text/plain",
                             headers=[("Content-Disposition", 'attachment; filename="report.txt"')])
        if path == "/binary":  # a type no page can show
            return self.send(200, "binary data\n", "application/x-activity-test")
        if path == "/blank-to":  # a page-wide link to the URL in the query, for a new window
            target = urllib.parse.unquote(self.path.split("?", 1)[1])
            return self.send(200, '<!DOCTYPE html><html><head><title>Link</title></head><body>'
                             f'<a href="{target}" target="_blank" style="display:block;position:fixed;'
                             'inset:0;font-size:40px">Next</a></body></html>')
        if path == "/slow":
            print("slow requested", flush=True)
            RELEASE.wait(60)
            return self.send(200, "<!DOCTYPE html><html><head><title>Slow Page</title></head>"
                             "<body><p>At last.</p></body></html>")
        if path == "/release":
            RELEASE.set()
            return self.send(200, "released", "text/plain")
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
