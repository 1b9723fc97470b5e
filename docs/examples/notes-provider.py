#!/usr/bin/python3
"""A complete Activity Broker provider in Python (dbus-python + GLib's main loop).

It registers one activity, "Save to Notes", for https URLs, and serves
org.activitybroker.Provider1.Perform: each shared page is appended to a notes file.
Run it in a desktop session (or with DBUS_SESSION_BUS_ADDRESS pointing at the broker's bus):

    /usr/bin/python3 docs/examples/notes-provider.py ~/notes.txt

then `share list https://example.org` shows "Save to Notes". Stop it with Ctrl-C: the
broker forgets the activity when this program leaves the bus.
Debian packages: python3-dbus, python3-gi.
"""
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

BROKER_NAME = "org.activitybroker.Broker1"
BROKER_PATH = "/org/activitybroker/Broker1"
BROKER_INTERFACE = "org.activitybroker.Broker1"
PROVIDER_INTERFACE = "org.activitybroker.Provider1"
ACCESS_DENIED = "org.activitybroker.Error.AccessDenied"

ACTIVITY_ID = "org.example.Notes.save"
OBJECT_PATH = "/org/example/Notes"


class AccessDenied(dbus.DBusException):
    _dbus_error_name = ACCESS_DENIED


class NotesProvider(dbus.service.Object):
    """Serves Provider1 at OBJECT_PATH: the broker calls Perform when the user picks us."""

    def __init__(self, bus, notes_file):
        super().__init__(bus, OBJECT_PATH)
        self.bus = bus
        self.notes_file = notes_file

    @dbus.service.method(PROVIDER_INTERFACE, in_signature="sa{sv}a{sv}",
                         out_signature="sa{sv}", sender_keyword="sender")
    def Perform(self, activity_id, items, options, sender=None):
        # Only the broker may ask: anyone else could otherwise write to our notes.
        if sender != self.bus.get_name_owner(BROKER_NAME):
            raise AccessDenied("only the activity broker may call Perform")
        url = str(items["url"])
        title = str(items.get("title", url))
        try:
            with open(self.notes_file, "a", encoding="utf-8") as notes:
                notes.write(f"{title}\t{url}\n")
        except OSError as error:
            return "failed", {"message": dbus.String(f"cannot write {self.notes_file}: {error.strerror}")}
        # Anything in this dictionary reaches the caller's Job1.Finished results.
        return "completed", {"saved": dbus.Boolean(True)}


def register(bus):
    """RegisterActivity: every value must carry its exact D-Bus type (a{ss}, as, o, i)."""
    broker = dbus.Interface(bus.get_object(BROKER_NAME, BROKER_PATH), BROKER_INTERFACE)
    broker.RegisterActivity(dbus.Dictionary({
        "id": ACTIVITY_ID,
        "name": "Save to Notes",
        "names": dbus.Dictionary({"de": "In Notizen sichern"}, signature="ss"),
        "icon": "accessories-text-editor",
        "category": "action",
        "object_path": dbus.ObjectPath(OBJECT_PATH),
        "match": dbus.Dictionary({"schemes": dbus.Array(["https"], signature="s")}, signature="sv"),
        "priority": dbus.Int32(0),
    }, signature="sv"))


def main():
    if len(sys.argv) != 2:
        print("usage: notes-provider.py NOTES_FILE", file=sys.stderr)
        return 2
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    NotesProvider(bus, sys.argv[1])
    register(bus)  # starts the broker by D-Bus activation when it is not running
    registered_with = {"owner": bus.get_name_owner(BROKER_NAME)}

    # A broker that restarts forgets dynamic activities: register again when a new one comes.
    # (The watch also reports the current owner once at the start: nothing to do then.)
    def broker_changed(owner):
        if owner and owner != registered_with["owner"]:
            register(bus)
        registered_with["owner"] = owner

    bus.watch_name_owner(BROKER_NAME, broker_changed)
    print(f"registered {ACTIVITY_ID} as {bus.get_unique_name()}", flush=True)
    try:
        GLib.MainLoop().run()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
