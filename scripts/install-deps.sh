#!/usr/bin/env bash
# Installs what `make test` and `make run` need on a fresh Debian machine, only when missing.
set -euo pipefail
need=()
pkg-config --exists dbus-1 2>/dev/null || need+=(libdbus-1-dev pkg-config)
command -v dbus-daemon >/dev/null || need+=(dbus-daemon)
command -v dbus-send >/dev/null || need+=(dbus-bin)
command -v tmux >/dev/null || need+=(tmux)
command -v python3 >/dev/null || need+=(python3)
[ ${#need[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${need[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
