#!/usr/bin/python3
# Prints the accessibility tree of the process PID as the AT-SPI registry sees it:
# one "role<TAB>name" line per visible push button, label, text or heading, in tree order,
# with "<TAB>focused" appended for the control that has the keyboard focus.
# Used by ActivitySheetUITests to read the sheet as a screen reader would.
import sys

import pyatspi

ROLES = {"push button", "label", "text", "heading", "entry", "frame"}


def walk(node, out):
    try:
        role = node.getRoleName()
        name = node.name or ""
        state = node.getState()
        visible = state.contains(pyatspi.STATE_VISIBLE)
        focused = state.contains(pyatspi.STATE_FOCUSED)
    except Exception:
        return
    if not visible:
        return
    if role in ROLES:
        out.append(f"{role}\t{name}\tfocused" if focused else f"{role}\t{name}")
    for index in range(node.childCount):
        child = node.getChildAtIndex(index)
        if child is not None:
            walk(child, out)


def main():
    pid = int(sys.argv[1])
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        app = desktop.getChildAtIndex(index)
        if app is None:
            continue
        try:
            if app.get_process_id() != pid:
                continue
        except Exception:
            continue
        out = []
        for child_index in range(app.childCount):
            walk(app.getChildAtIndex(child_index), out)
        print("\n".join(out))
        return 0
    print(f"no accessible application with pid {pid}", file=sys.stderr)
    return 1


sys.exit(main())
