#!/usr/bin/env bash
# `make run`: starts the built broker with the repository's extensions/ on the session bus.
# When DBUS_SESSION_BUS_ADDRESS is unset or that bus does not answer, it first starts a
# private dbus-daemon (with this build's providers activatable) and prints the export line
# for a second terminal.
set -euo pipefail
bin=$(cd "${1:-.build/release}" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)

bus_answers() {
  [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] &&
    timeout 3 dbus-send --session --print-reply --dest=org.freedesktop.DBus \
      /org/freedesktop/DBus org.freedesktop.DBus.Peer.Ping >/dev/null 2>&1
}

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
  exec 3< <(dbus-daemon --nofork --config-file="$runtime/bus.conf" --print-address=1 2>/dev/null)
  daemon_pid=$!
  read -r address <&3
  trap 'kill $daemon_pid 2>/dev/null; rm -rf "$runtime"' EXIT
  export DBUS_SESSION_BUS_ADDRESS="$address"
  echo "No session bus answered; started a private one. In a second terminal:"
  echo
  echo "  export DBUS_SESSION_BUS_ADDRESS='$address'"
  echo "  export PATH=\"$bin:\$PATH\""
  echo "  share https://example.org"
  echo
fi

echo "Starting activity-broker on $DBUS_SESSION_BUS_ADDRESS (Ctrl-C stops it)"
PATH="$bin:$PATH" "$bin/activity-broker" --extensions-dir "$repo/extensions" --verbose &
broker=$!
trap 'kill -TERM $broker 2>/dev/null; wait $broker; kill ${daemon_pid:-} 2>/dev/null; rm -rf "${runtime:-/nonexistent}"' EXIT INT TERM
wait $broker
