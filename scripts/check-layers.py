#!/usr/bin/env python3
"""Checks the layers of docs/architecture.md: every target imports only the project modules
listed for it below (arrows point down only), CDBus only in DBus, CCurl only in TextPages (CCurlLoader in ReportTransport, CEpoll in DescriptorEvents),
CGtk/CWebKit only in the UI targets, the client never the service, the domain uses no D-Bus and no process APIs,
and no module of the daemon imports Foundation or FoundationEssentials.
Run by `make test`; exits 1 naming each import that breaks a rule."""
import pathlib
import re
import sys

# What each target may import of the project's own modules. System modules (Foundation,
# FoundationEssentials, Glibc, Dispatch, Synchronization) are allowed everywhere except where
# FORBIDDEN_SYSTEM says otherwise. A target not listed here is an error: add it with its layer.
ALLOWED = {
    "CDBus": set(),
    "CGtk": set(),
    "CWebKit": set(),
    "CCurl": set(),
    "CCurlLoader": set(),
    "CEpoll": set(),
    "GtkSupport": {"CGtk"},
    # The one mutex and a value behind it: the bottom utility layer, importable by every layer.
    "Locking": set(),
    "DBus": {"CDBus", "Locking"},
    "ActivityKit": set(),
    # Descriptors' readiness from one epoll thread of our own (children's pipes and pidfds).
    "DescriptorEvents": {"CEpoll", "Locking"},
    "SystemSupport": {"Locking", "DescriptorEvents"},
    "ActivityBrokerInterface": {"DBus", "ActivityKit"},
    # The broker's one network call (click measurement reports), libcurl behind one file.
    "ReportTransport": {"CCurlLoader"},
    "ActivityBroker": {"DBus", "ActivityKit", "ActivityBrokerInterface", "SystemSupport", "ReportTransport",
                       "Locking"},
    "ActivityBrokerClient": {"DBus", "ActivityKit", "ActivityBrokerInterface", "Locking"},
    "Navigation": {"ActivityBrokerClient", "ActivityKit", "SystemSupport"},
    "TextPages": {"Navigation", "ActivityKit", "SystemSupport", "CCurl"},
    "TerminalUI": {"SystemSupport"},
    "ShareCLI": {"ActivityBrokerClient", "ActivityKit", "Navigation", "TextPages", "TerminalUI",
                 "SystemSupport", "DBus", "ActivityBrokerInterface"},
    # What the sheet and the browser window share below GTK (D-Bus side, idle exit, bench marks).
    "UIServiceSupport": {"DBus", "ActivityBrokerInterface"},
    "ShareSheet": {"CGtk", "GtkSupport", "DBus", "ActivityKit", "ActivityBrokerInterface", "SystemSupport",
                   "UIServiceSupport"},
    "BrowserWindow": {"CGtk", "CWebKit", "GtkSupport", "DBus", "ActivityKit", "ActivityBrokerInterface",
                      "ActivityBrokerClient", "Navigation", "SystemSupport", "ShareSheet", "UIServiceSupport"},
    "TestSupport": {"DBus", "ActivityBrokerInterface", "SystemSupport", "Locking"},
    "ActivityFuzzing": {"ActivityKit"},
    # Executables: wiring only, each over its own layer (and the contract, for `--version`).
    "activity-broker": {"ActivityBroker", "ActivityBrokerInterface", "SystemSupport", "Locking"},
    "share": {"ShareCLI"},
    "activity-sheet": {"ShareSheet", "UIServiceSupport"},
    "activity-browser": {"BrowserWindow", "UIServiceSupport"},
    "activity-reading-list": {"ActivityBrokerClient", "ActivityBrokerInterface", "DBus", "SystemSupport",
                              "UIServiceSupport"},
    "activity-qr": {"SystemSupport", "ActivityBrokerInterface"},
    "example-provider": {"ActivityBrokerClient", "ActivityBrokerInterface", "DBus"},
    "activity-fuzz": {"ActivityFuzzing"},
    "broker-bench": {"DBus", "ActivityBrokerInterface", "TestSupport", "SystemSupport"},
    # broker-bench's floors and what they share, on CGtk alone.
    "FloorSupport": {"CGtk"},
    "gtk-first-frame": {"CGtk", "FloorSupport"},
    "webkit-first-paint": {"CGtk", "CWebKit", "FloorSupport"},
}
# System modules a layer must not use. The domain may use Glibc's maths and dlopen (the ICU
# normalizers without Foundation); FORBIDDEN_TEXT keeps processes out of it.
FORBIDDEN_SYSTEM: dict[str, set[str]] = {}

# The daemon (`activity-broker` and every module it may import, transitively) links no
# Foundation: FoundationEssentials alone cost it ~1.5 MB of resident memory (issue 14). Its
# modules use the stdlib, Glibc and Dispatch, and their own stand-ins (SystemSupport's
# ProcessEnvironment, DirectoryTree, SystemCalls.readFile; ActivityKit's Timestamp; [UInt8]).
DAEMON_ROOT = "activity-broker"
FOUNDATION_MODULES = {"Foundation", "FoundationEssentials", "FoundationInternationalization",
                      "FoundationNetworking", "FoundationXML"}


def daemon_modules() -> set[str]:
    """`DAEMON_ROOT` and what ALLOWED lets it import, transitively."""
    found, todo = set(), [DAEMON_ROOT]
    while todo:
        module = todo.pop()
        if module not in found:
            found.add(module)
            todo.extend(ALLOWED.get(module, ()))
    return found
# Text that must not appear in a target's sources: process, signal, pipe and socket APIs in the domain.
FORBIDDEN_TEXT = {
    "ActivityKit": [
        r"\bProcess\(", r"posix_spawn", r"\bfork\(", r"\bexecv", r"\bwaitpid\(", r"\bkill\(",
        r"\bpipe2?\(", r"\bsocket\(", r"\bsignal\(", r"\bsigaction\b",
    ]
}

# One import per line: `import X`, `@preconcurrency import X`, `public import X`,
# `import struct X.Y`. Only blanks (never a newline) between the words.
IMPORT = re.compile(
    r"^[ \t]*(?:@\w+[ \t]+)*(?:(?:public|package|internal|fileprivate|private)[ \t]+)?import[ \t]+"
    r"(?:(?:struct|class|enum|protocol|typealias|func|var|let)[ \t]+)?([A-Za-z_]\w*)",
    re.M)


def main() -> int:
    root = pathlib.Path(__file__).resolve().parent.parent / "Sources"
    project = {p.name for p in root.iterdir() if p.is_dir()}
    problems = []
    daemon = daemon_modules()
    for target in sorted(project):
        if target not in ALLOWED:
            problems.append(f"{target}: not in scripts/check-layers.py's table; give it a layer")
            continue
        for file in sorted((root / target).rglob("*.swift")):
            text = file.read_text(encoding="utf-8")
            rel = file.relative_to(root.parent)
            for module in IMPORT.findall(text):
                if module in project and module not in ALLOWED[target]:
                    problems.append(f"{rel}: {target} may not import {module}")
                if module in FORBIDDEN_SYSTEM.get(target, ()):
                    problems.append(f"{rel}: {target} may not import {module}")
                if module in FOUNDATION_MODULES and target in daemon:
                    problems.append(
                        f"{rel}: {target} is linked into {DAEMON_ROOT}, which imports no {module} "
                        "(use the stdlib, Glibc, Dispatch or SystemSupport's stand-ins)")
            for pattern in FORBIDDEN_TEXT.get(target, ()):
                if re.search(pattern, text):
                    problems.append(f"{rel}: {target} may not use {pattern}")
    for line in problems:
        print(f"check-layers: {line}")
    if problems:
        return 1
    print(f"check-layers: {len(project)} targets follow the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
