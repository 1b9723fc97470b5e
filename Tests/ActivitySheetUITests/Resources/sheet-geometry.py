#!/usr/bin/python3
# Prints where GTK placed the visible controls of the process PID, as AT-SPI's Component
# interface reports them (GTK computes them from the widgets' allocations): one
# "role<TAB>name<TAB>x<TAB>y<TAB>width<TAB>height" line per visible frame, push button, label,
# heading or scroll bar, in window coordinates, with "<TAB>focused" appended for the focused control.
# Used by ActivitySheetUITests to check geometry (the sheet fits the screen, the focused
# activity is scrolled into view).
import sys

import pyatspi

ROLES = {"frame", "push button", "label", "heading", "scroll bar"}


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
        try:
            box = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
            fields = [role, name, str(box.x), str(box.y), str(box.width), str(box.height)]
            if focused:
                fields.append("focused")
            out.append("\t".join(fields))
        except Exception:
            pass
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
