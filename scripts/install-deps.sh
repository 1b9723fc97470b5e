#!/usr/bin/env bash
# Installs what `make test` and `make run` need on a fresh Debian machine, only when missing:
# libdbus headers, the daemon and its tools, busctl/gdbus for introspection checks, tmux
# for terminal tests, python3 with dbus-python and PyGObject (activation and GIO tests),
# GTK 4 for the share sheet and WebKitGTK 6 for the browser window, libcurl, the Public Suffix
# List and libpsl, and Xvfb, xdotool, AT-SPI for Python, ImageMagick and an icon theme for
# the headless window tests. The list below is the authority; the README refers to it.
set -euo pipefail
# The Swift toolchain is not a Debian package: say where it comes from rather than fail later
# in `swift build` with "command not found". SWIFT is the Makefile's (default: swift).
if ! command -v "${SWIFT:-swift}" >/dev/null; then
  echo "install-deps: '${SWIFT:-swift}' is not on PATH: install the Swift 6.3 toolchain for Linux" >&2
  echo "install-deps: (https://www.swift.org/install/linux/) and put its usr/bin on PATH, or run make SWIFT=/path/to/swift" >&2
  exit 1
fi
need=()
pkg-config --exists dbus-1 2>/dev/null || need+=(libdbus-1-dev pkg-config)
# libcurl's headers: the terminal browser's page loader (TextPages) transfers with libcurl.
pkg-config --exists libcurl 2>/dev/null || need+=(libcurl4-openssl-dev)
command -v dbus-daemon >/dev/null || need+=(dbus-daemon)
# The Public Suffix List (sites for click measurement and the address bars), and libpsl, the
# reference PublicSuffixListDifferentialTests holds our reading of it to.
[ -f /usr/share/publicsuffix/public_suffix_list.dat ] || need+=(publicsuffix)
ls /usr/lib/*/libpsl.so.5 >/dev/null 2>&1 || need+=(libpsl5)
command -v dbus-send >/dev/null && command -v dbus-monitor >/dev/null || need+=(dbus-bin)
command -v gdbus >/dev/null || need+=(libglib2.0-bin)
command -v busctl >/dev/null || need+=(systemd)
command -v tmux >/dev/null || need+=(tmux)
command -v xdg-open >/dev/null || need+=(xdg-utils)
[ -x /usr/bin/python3 ] || need+=(python3)
/usr/bin/python3 -c 'import dbus, gi' 2>/dev/null || need+=(python3-dbus python3-gi)
# The manifest JSON Schema test (docs/manifest.schema.json).
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null || need+=(python3-jsonschema)
# A FUSE file system that stops answering (scripts/hanging-mount.py): the broker's start must not hang on it.
/usr/bin/python3 -c 'import fusepy' 2>/dev/null || need+=(python3-fusepy)
# The man page check (groff's warnings).
command -v groff >/dev/null || need+=(groff)
# The graphical UI services and their headless tests.
pkg-config --exists gtk4 2>/dev/null || need+=(libgtk-4-dev)
command -v Xvfb >/dev/null || need+=(xvfb xauth)
command -v xdotool >/dev/null || need+=(xdotool)
command -v xprop >/dev/null || need+=(x11-utils)
command -v import >/dev/null || need+=(imagemagick)
/usr/bin/python3 -c 'import pyatspi' 2>/dev/null || need+=(python3-pyatspi at-spi2-core)
[ -d /usr/share/icons/Adwaita ] || need+=(adwaita-icon-theme)
# The browser window (WebKitGTK 6), TLS for its https pages, openssl for its certificate tests.
pkg-config --exists webkitgtk-6.0 2>/dev/null || need+=(libwebkitgtk-6.0-dev)
[ -e /usr/lib/x86_64-linux-gnu/gio/modules/libgiognutls.so ] || ls /usr/lib/*/gio/modules/libgiognutls.so >/dev/null 2>&1 || need+=(glib-networking)
command -v openssl >/dev/null || need+=(openssl)
# A real window manager under Xvfb: the click-measurement gesture proof (the window activated
# with its token becomes the active window).
command -v openbox >/dev/null || need+=(openbox)
[ ${#need[@]} -eq 0 ] && exit 0
command="apt-get update && apt-get install -y ${need[*]}"
if ! command -v apt-get >/dev/null; then
  echo "install-deps: missing: ${need[*]} (Debian package names), and there is no apt-get here to install them" >&2
  echo "install-deps: install the equivalents with this system's package manager" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  # Without a password prompt only: `make` must not stop and wait for one.
  if ! command -v sudo >/dev/null || ! sudo -n true 2>/dev/null; then
    echo "install-deps: missing: ${need[*]}; not root, and sudo is absent or needs a password. As root, run:" >&2
    echo "  $command" >&2
    exit 1
  fi
  SUDO="sudo"
fi
echo "install-deps: installing ${need[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
