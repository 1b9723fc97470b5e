#!/usr/bin/python3
"""GLib's GIO on a directory of desktop entries and mimeapps.list files: the reference of the
broker's differential test (Tests/ActivityBrokerTests/Installed/GIODifferentialTests.swift).

  gio-reference.py query REQUEST.json   prints what GIO sees, as JSON, on standard output
  gio-reference.py serve NAME...        owns NAMEs on the session bus and records every
                                        org.freedesktop.Application.Open call; prints
                                        "ready" on standard output once it owns them all

The environment (XDG_*, PATH, HOME, DBUS_SESSION_BUS_ADDRESS) is the one under test; the test
sets it. Launches are recorded by the recording programs on PATH and by `serve`, one JSON
object a line, in $GIO_DIFF_RECORDS.

GIO learns MimeType= lines only from mimeinfo.cache, which update-desktop-database writes on
every real system when a package installs a desktop file; `query` writes it first, the same
way (every file that parses and is not Hidden, found as GIO finds them, ids sorted).
"""
import json
import os
import sys

import gi

gi.require_version("Gio", "2.0")
gi.require_version("GLib", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

APPLICATION_XML = """
<node><interface name="org.freedesktop.Application">
  <method name="Activate"><arg type="a{sv}" direction="in"/></method>
  <method name="Open"><arg type="as" direction="in"/><arg type="a{sv}" direction="in"/></method>
  <method name="ActivateAction"><arg type="s" direction="in"/><arg type="av" direction="in"/>
    <arg type="a{sv}" direction="in"/></method>
</interface></node>
"""


def record(entry):
    with open(os.environ["GIO_DIFF_RECORDS"], "a", encoding="utf-8") as f:
        f.write(json.dumps(entry) + "\n")


def records():
    try:
        with open(os.environ["GIO_DIFF_RECORDS"], encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        return []


def data_dirs():
    home = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    dirs = os.environ.get("XDG_DATA_DIRS") or "/usr/local/share:/usr/share"
    return [home] + [d for d in dirs.split(":") if d]


def desktop_files(directory, prefix):
    """(desktop id, path) of every entry below directory, as gdesktopappinfo.c's get_apps_from_dir
    finds them: symlinks followed (a loop until the kernel's ELOOP), a name ending in .desktop
    taken and not entered, a directory that cannot be listed skipped."""
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        path = os.path.join(directory, name)
        if name.endswith(".desktop"):
            yield prefix + name, path
        elif os.path.isdir(path):
            yield from desktop_files(path, prefix + name + "-")


def write_mime_caches():
    for data in data_dirs():
        root = os.path.join(data, "applications")
        cache = {}
        for desktop_id, path in desktop_files(root, ""):
            key_file = GLib.KeyFile()
            try:
                key_file.load_from_file(path, GLib.KeyFileFlags.NONE)
            except GLib.Error:
                continue
            try:
                if key_file.get_boolean("Desktop Entry", "Hidden"):
                    continue
            except GLib.Error:
                pass
            try:
                mime_types = key_file.get_string_list("Desktop Entry", "MimeType")
            except GLib.Error:
                continue
            for mime in mime_types:
                if mime:
                    cache.setdefault(mime, []).append(desktop_id)
        if os.path.isdir(root):
            with open(os.path.join(root, "mimeinfo.cache"), "w", encoding="utf-8") as f:
                f.write("[MIME Cache]\n")
                for mime in sorted(cache):
                    f.write("%s=%s;\n" % (mime, ";".join(sorted(cache[mime]))))


class TokenContext(Gio.AppLaunchContext):
    """A launch context that hands out a fixed startup id, as a compositor's token would be."""

    def __init__(self, token):
        super().__init__()
        self.token = token

    def do_get_startup_notify_id(self, info, files):
        return self.token


def is_bus_activated(info):
    """GIO's own test: DBusActivatable=true and the file name a well-known bus name."""
    base = os.path.basename(info.get_filename())[: -len(".desktop")]
    return info.get_boolean("DBusActivatable") and Gio.dbus_is_name(base) and not base.startswith(":")


def app_info(desktop_id):
    """Gio.DesktopAppInfo.new, or None: PyGObject raises when the constructor returns NULL
    (an id listed that no longer loads, e.g. a file changed meanwhile)."""
    try:
        return Gio.DesktopAppInfo.new(desktop_id)
    except TypeError:
        print("gio-reference.py: %s does not load" % desktop_id, file=sys.stderr)
        return None


def launch(desktop_id, url, token):
    info = app_info(desktop_id)
    if info is None:
        return {"error": "not installed"}
    before = len(records())
    context = TokenContext(token)
    try:
        if is_bus_activated(info):
            # Open goes out on the session bus; the callback runs when `serve` has answered.
            loop = GLib.MainLoop()
            outcome = []

            def finished(source, result, _data):
                try:
                    outcome.append(source.launch_uris_finish(result))
                except GLib.Error as error:
                    outcome.append(error)
                loop.quit()

            info.launch_uris_async([url], context, None, finished, None)
            loop.run()
            if isinstance(outcome[0], GLib.Error):
                raise outcome[0]
        else:
            pids = []
            info.launch_uris_as_manager(
                [url], context, GLib.SpawnFlags.SEARCH_PATH | GLib.SpawnFlags.DO_NOT_REAP_CHILD,
                None, None, lambda _info, pid, _data: pids.append(pid), None)
            for pid in pids:
                os.waitpid(pid, 0)
    except GLib.Error as error:
        return {"error": error.message}
    after = records()
    return after[before] if len(after) > before else {"error": "nothing recorded"}


def query(request):
    write_mime_caches()
    answer = {"schemes": {}, "names": {}, "launches": []}
    ids = set()
    for scheme in request["schemes"]:
        infos = Gio.AppInfo.get_all_for_type("x-scheme-handler/" + scheme)
        default = Gio.AppInfo.get_default_for_uri_scheme(scheme)
        answer["schemes"][scheme] = {
            "all": [info.get_id() for info in infos],
            "default": default.get_id() if default else None,
        }
        ids.update(info.get_id() for info in infos)
        if default:
            ids.add(default.get_id())
    for locale in request["locales"]:
        os.environ["LANGUAGE"] = locale
        for desktop_id in sorted(ids):
            info = app_info(desktop_id)
            if info is not None:
                answer["names"].setdefault(desktop_id, {})[locale] = info.get_name()
    os.environ.pop("LANGUAGE", None)
    for desktop_id, url in request["launches"]:
        answer["launches"].append({"id": desktop_id, "url": url, "record": launch(desktop_id, url, request["token"])})
    json.dump(answer, sys.stdout, ensure_ascii=False, indent=1, sort_keys=True)


def serve(names):
    connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    interface = Gio.DBusNodeInfo.new_for_xml(APPLICATION_XML).interfaces[0]

    def on_call(_connection, _sender, path, _interface, method, parameters, invocation):
        if method == "Open":
            uris, platform_data = parameters.unpack()
            record({"dbus": {"path": path, "uris": uris, "platform_data": platform_data}})
        invocation.return_value(None)

    for name in names:
        path = "/" + name.replace(".", "/").replace("-", "_")
        connection.register_object(path, interface, on_call, None, None)
        reply = connection.call_sync(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
            GLib.Variant("(su)", (name, 4)), None, Gio.DBusCallFlags.NONE, -1, None)
        if reply.unpack()[0] != 1:
            raise SystemExit("could not own " + name)
    print("ready", flush=True)
    GLib.MainLoop().run()


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "query":
        with open(sys.argv[2], encoding="utf-8") as f:
            query(json.load(f))
    elif len(sys.argv) >= 2 and sys.argv[1] == "serve":
        serve(sys.argv[2:])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
