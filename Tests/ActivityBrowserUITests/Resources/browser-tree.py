#!/usr/bin/python3
# The browser window as a screen reader sees it, through AT-SPI.
#   browser-tree.py tree PID   one "role<TAB>name[<TAB>focused]" line per visible button, label,
#                              text or frame of process PID, in tree order
#   browser-tree.py press PID NAME   activates the visible push button named NAME
# Used by ActivityBrowserUITests.
import sys

import pyatspi

ROLES = {"push button", "label", "text", "heading", "entry", "frame"}


def walk(node, out, buttons):
    try:
        role = node.getRoleName()
        name = node.name or ""
        state = node.getState()
        visible = state.contains(pyatspi.STATE_VISIBLE)
        focused = state.contains(pyatspi.STATE_FOCUSED)
        sensitive = state.contains(pyatspi.STATE_SENSITIVE)
    except Exception:
        return
    if not visible:
        return
    # The page's own accessibility tree (WebKit's) is left out: it is not ours to check.
    if role in ("document web", "document frame"):
        return
    if role in ROLES:
        line = f"{role}\t{name}" + ("" if sensitive else "\tinsensitive")
        out.append(line + "\tfocused" if focused else line)
    if role == "push button":
        buttons[name] = node
    for index in range(node.childCount):
        child = node.getChildAtIndex(index)
        if child is not None:
            walk(child, out, buttons)


def application(pid):
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        app = desktop.getChildAtIndex(index)
        try:
            if app is not None and app.get_process_id() == pid:
                return app
        except Exception:
            continue
    return None


def main():
    mode, pid = sys.argv[1], int(sys.argv[2])
    app = application(pid)
    if app is None:
        print(f"no accessible application with pid {pid}", file=sys.stderr)
        return 1
    out, buttons = [], {}
    for index in range(app.childCount):
        walk(app.getChildAtIndex(index), out, buttons)
    if mode == "tree":
        print("\n".join(out))
        return 0
    button = buttons.get(sys.argv[3])
    if button is None:
        print(f"no visible button named {sys.argv[3]}: {sorted(buttons)}", file=sys.stderr)
        return 1
    button.queryAction().doAction(0)
    return 0


sys.exit(main())
