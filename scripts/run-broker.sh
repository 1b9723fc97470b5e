#!/usr/bin/env bash
# `make run`: starts the built broker with the repository's extensions/ on the session bus.
# When DBUS_SESSION_BUS_ADDRESS is unset or that bus does not answer, it first starts a
# private dbus-daemon (with this build's providers activatable) and prints the export lines
# for a second terminal; on a session bus that answers it prints only the PATH export line.
# Ctrl-C (or SIGTERM) stops the broker and the private bus and removes the bus's temporary
# directory.
#
# Usage: scripts/run-broker.sh [BUILD_DIR]   (default .build/release)
# Environment:
#   REPLACE=1        pass --replace: take the name over from a broker already running
#   RUN_STATE=home   keep usage in your real $XDG_STATE_HOME; RUN_STATE=DIR uses DIR;
#                    unset: .build/run-state, so trying things out does not change your ranking
set -euo pipefail
bin=$(cd "${1:-.build/release}" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)

broker=""
daemon_pid=""
runtime=""
# Runs once, on any way out; nothing in it may stop it half-way (no errexit here: the
# broker may be gone already, and the directory must go regardless).
cleanup() {
  set +e
  trap - EXIT INT TERM
  if [ -n "$broker" ]; then
    kill -TERM "$broker" 2>/dev/null
    wait "$broker" 2>/dev/null
  fi
  [ -n "$daemon_pid" ] && kill -TERM "$daemon_pid" 2>/dev/null
  [ -n "$runtime" ] && rm -rf "$runtime"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

bus_answers() {
  [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] &&
    timeout 3 dbus-send --session --print-reply --dest=org.freedesktop.DBus \
      /org/freedesktop/DBus org.freedesktop.DBus.Peer.Ping >/dev/null 2>&1
}

case "${RUN_STATE:-}" in
  home) ;;
  "") export XDG_STATE_HOME="$repo/.build/run-state" && mkdir -p "$XDG_STATE_HOME" ;;
  *) export XDG_STATE_HOME="$RUN_STATE" && mkdir -p "$XDG_STATE_HOME" ;;
esac

if ! bus_answers; then
  runtime=$(mktemp -d "${TMPDIR:-/tmp}/activity-broker-bus.XXXXXX")
  mkdir -p "$runtime/services"
  # Activation files for the providers this build ships, pointing at the built binaries.
  for f in "$repo"/systemd/org.*.service; do
    [ "$(basename "$f")" = org.activitybroker.Broker1.service ] && continue
    sed "s|/usr/local/bin|$bin|g" "$f" > "$runtime/services/$(basename "$f")"
  done
  cat > "$runtime/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=$runtime</listen>
  <servicedir>$runtime/services</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
  # Its stderr is kept: when it cannot start, it is what says why.
  exec 3< <(exec dbus-daemon --nofork --config-file="$runtime/bus.conf" --print-address=1 2>"$runtime/dbus-daemon.log")
  daemon_pid=$!
  if ! read -r address <&3 || [ -z "$address" ]; then
    wait "$daemon_pid" 2>/dev/null || true
    reason=$(tr -s '\n' ' ' < "$runtime/dbus-daemon.log" 2>/dev/null) || true
    reason=${reason% }
    command -v dbus-daemon >/dev/null || reason="dbus-daemon is not installed (package dbus-daemon; make deps installs it)"
    echo "run-broker: cannot start dbus-daemon: ${reason:-it exited without a word}" >&2
    exit 1
  fi
  export DBUS_SESSION_BUS_ADDRESS="$address"
  echo "No session bus answered; started a private one. In a second terminal:"
  echo
  echo "  export DBUS_SESSION_BUS_ADDRESS='$address'"
  echo "  export PATH=\"$bin:\$PATH\""
  echo "  share https://example.org"
  echo
fi
[ -n "$runtime" ] || printf 'In a second terminal, for the share just built:\n\n  export PATH="%s:$PATH"\n\n' "$bin"

arguments=(--extensions-dir "$repo/extensions" --verbose)
[ "${REPLACE:-0}" = 1 ] && arguments+=(--replace)
echo "Starting activity-broker on $DBUS_SESSION_BUS_ADDRESS (Ctrl-C stops it)"
echo "Usage ranking in ${XDG_STATE_HOME:-$HOME/.local/state}/activity-broker (RUN_STATE=home for your own)"
PATH="$bin:$PATH" "$bin/activity-broker" "${arguments[@]}" &
broker=$!
# A broker that exits on its own ends the script with its status (after the cleanup).
set +e
wait "$broker"
status=$?
broker=""
exit "$status"
