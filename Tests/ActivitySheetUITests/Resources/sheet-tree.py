#!/usr/bin/python3
# Prints the accessibility tree of the process PID as the AT-SPI registry sees it:
# one "role<TAB>name" line per visible push button, label, text or heading, in tree order,
# with "<TAB>focused" appended for the control that has the keyboard focus.
# Used by ActivitySheetUITests to read the sheet as a screen reader would.
#
# With --geometry: where GTK placed the visible frames, push buttons, labels, headings and
# scroll bars, as AT-SPI's Component interface reports them (GTK computes them from the
# widgets' allocations): "role<TAB>name<TAB>x<TAB>y<TAB>width<TAB>height" in window
# coordinates, "<TAB>focused" appended likewise. Used to check that the sheet fits the screen
# and that the focused activity is scrolled into view.
import sys

import pyatspi

ROLES = {"push button", "label", "text", "heading", "entry", "frame"}
GEOMETRY_ROLES = {"frame", "push button", "label", "heading", "scroll bar"}


def line(node, role, name, geometry):
    """The fields of one control's line; None when its place cannot be read."""
    if not geometry:
        return [role, name]
    try:
        box = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    except Exception:
        return None
    return [role, name, str(box.x), str(box.y), str(box.width), str(box.height)]


def walk(node, out, geometry):
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
    if role in (GEOMETRY_ROLES if geometry else ROLES):
        fields = line(node, role, name, geometry)
        if fields is not None:
            out.append("\t".join(fields + ["focused"] if focused else fields))
    for index in range(node.childCount):
        child = node.getChildAtIndex(index)
        if child is not None:
            walk(child, out, geometry)


def main():
    pid = int(sys.argv[1])
    geometry = "--geometry" in sys.argv[2:]
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
            walk(app.getChildAtIndex(child_index), out, geometry)
        print("\n".join(out))
        return 0
    print(f"no accessible application with pid {pid}", file=sys.stderr)
    return 1


sys.exit(main())
