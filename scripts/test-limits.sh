#!/usr/bin/env bash
# Raises the per-user inotify instance limit for `make test` when it may (root, as on CI).
# The suite runs many brokers, private buses and GTK/WebKit processes at once; each broker
# holds inotify instances (manifest, applications and PATH watches), GLib and WebKit hold
# their own, and Linux allows 128 per user by default: past it a watch silently fails and the
# tests that wait for a change time out.
set -u
need=1024
have=$(cat /proc/sys/fs/inotify/max_user_instances 2>/dev/null || echo "$need")
[ "$have" -ge "$need" ] && exit 0
# Written directly, not with sysctl: procps is not on a fresh container.
if [ "$(id -u)" -eq 0 ] && echo "$need" 2>/dev/null > /proc/sys/fs/inotify/max_user_instances; then
  echo "test-limits: raised fs.inotify.max_user_instances from $have to $need for the test suite"
else
  echo "test-limits: fs.inotify.max_user_instances is $have (not root, or not allowed to change it);"
  echo "test-limits: tests that watch files may time out: sudo sysctl fs.inotify.max_user_instances=$need"
fi
