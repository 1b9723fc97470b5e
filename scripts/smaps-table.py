#!/usr/bin/env python3
"""smaps-table: where a process's resident memory is, per mapping, from a /proc/PID/smaps copy.

Usage: smaps-table.py FILE [FILE2]   (two files: a second column and the difference)

Rows group a library's mappings under its file name; anonymous mappings are split into the
heap ([heap]), thread stacks (anonymous rw mappings of about 8 MB, the default pthread
stack), glibc malloc arenas (their reservations start 64 MB-aligned) and the rest. Sizes are Rss in kB.
"""
import re
import sys
from collections import OrderedDict


def parse(path):
    maps = []
    current = None
    for line in open(path):
        m = re.match(r'^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \d+\s*(.*)$', line)
        if m:
            current = {'start': int(m.group(1), 16), 'end': int(m.group(2), 16), 'perms': m.group(3),
                       'name': m.group(4).strip(), 'Rss': 0, 'Private_Dirty': 0, 'Anonymous': 0}
            maps.append(current)
            continue
        m = re.match(r'^(\w+):\s+(\d+) kB', line)
        if m and current is not None and m.group(1) in ('Rss', 'Private_Dirty', 'Anonymous'):
            current[m.group(1)] = int(m.group(2))
    return maps


def classify(maps):
    groups = OrderedDict()
    for entry in maps:
        name = entry['name']
        size = entry['end'] - entry['start']
        if name.startswith('/'):
            key = name.rsplit('/', 1)[-1]
        elif name in ('[heap]', '[stack]', '[vdso]', '[vvar]', '[vsyscall]'):
            key = name
        elif name == '':
            if entry['start'] % (64 << 20) == 0:
                key = '(anon: malloc arenas)'
            elif (7 << 20) < size <= (8 << 20) + (64 << 10) and entry['perms'].startswith('rw'):
                key = '(anon: thread stacks)'
            else:
                key = '(anon: other)'
        else:
            key = name
        group = groups.setdefault(key, {'Rss': 0, 'Private_Dirty': 0, 'count': 0})
        group['Rss'] += entry['Rss']
        group['Private_Dirty'] += entry['Private_Dirty']
        group['count'] += 1
    return groups


def main():
    files = sys.argv[1:]
    tables = [classify(parse(f)) for f in files]
    keys = list(OrderedDict.fromkeys(k for t in tables for k in t))
    keys.sort(key=lambda k: -max(t.get(k, {'Rss': 0})['Rss'] for t in tables))
    header = '%-34s' % 'mapping' + ''.join('%10s %9s' % ('Rss kB', 'dirty') for _ in tables)
    if len(tables) == 2:
        header += '%10s' % 'Δ Rss'
    print(header)
    totals = [0] * len(tables)
    for key in keys:
        row = '%-34s' % key[:34]
        for i, t in enumerate(tables):
            g = t.get(key, {'Rss': 0, 'Private_Dirty': 0})
            totals[i] += g['Rss']
            row += '%10d %9d' % (g['Rss'], g['Private_Dirty'])
        if len(tables) == 2:
            row += '%+10d' % (tables[1].get(key, {'Rss': 0})['Rss'] - tables[0].get(key, {'Rss': 0})['Rss'])
        if any(t.get(key, {'Rss': 0})['Rss'] for t in tables):
            print(row)
    print('%-34s' % 'total' + ''.join('%10d %9s' % (x, '') for x in totals))


if __name__ == '__main__':
    main()
