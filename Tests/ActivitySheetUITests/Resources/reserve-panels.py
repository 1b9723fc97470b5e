#!/usr/bin/python3
# Announces desktop panels on the X display in $DISPLAY, as an EWMH window manager does:
# reserve-panels.py TOP BOTTOM sets _NET_WORKAREA to the screen less TOP and BOTTOM pixels,
# lists it in _NET_SUPPORTED and makes the root window its own _NET_SUPPORTING_WM_CHECK
# window (GDK reads the work area only from a screen whose window manager says it supports
# it). xprop cannot write the WINDOW-typed check property, hence libX11 through ctypes.
# Prints "ready" once the properties are set, then stays connected until its standard input
# closes: an X server without -noreset drops the root window's properties when its last
# client leaves. Used by ActivitySheetUITests' 800×600-with-panels test.
import ctypes
import sys

XA_ATOM, XA_CARDINAL, XA_WINDOW = 4, 6, 33
PROP_MODE_REPLACE = 0

x11 = ctypes.cdll.LoadLibrary("libX11.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XDefaultRootWindow.restype = ctypes.c_ulong
x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x11.XInternAtom.restype = ctypes.c_ulong
x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
x11.XChangeProperty.argtypes = [
    ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
    ctypes.c_void_p, ctypes.c_int,
]
x11.XDisplayWidth.argtypes = [ctypes.c_void_p, ctypes.c_int]
x11.XDisplayHeight.argtypes = [ctypes.c_void_p, ctypes.c_int]
x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
x11.XCloseDisplay.argtypes = [ctypes.c_void_p]


def main():
    top, bottom = int(sys.argv[1]), int(sys.argv[2])
    display = x11.XOpenDisplay(None)
    if not display:
        print("cannot open the display", file=sys.stderr)
        return 1
    root = x11.XDefaultRootWindow(display)
    width, height = x11.XDisplayWidth(display, 0), x11.XDisplayHeight(display, 0)

    def atom(name):
        return x11.XInternAtom(display, name.encode(), 0)

    def change(name, kind, values):
        data = (ctypes.c_long * len(values))(*values)
        x11.XChangeProperty(display, root, atom(name), kind, 32, PROP_MODE_REPLACE, data, len(values))

    change("_NET_SUPPORTING_WM_CHECK", XA_WINDOW, [root])
    change("_NET_SUPPORTED", XA_ATOM, [atom("_NET_WORKAREA"), atom("_NET_SUPPORTING_WM_CHECK")])
    change("_NET_WORKAREA", XA_CARDINAL, [0, top, width, height - top - bottom])
    x11.XSync(display, 0)
    print("ready", flush=True)
    sys.stdin.read()
    x11.XCloseDisplay(display)
    return 0


sys.exit(main())
