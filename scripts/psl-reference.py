#!/usr/bin/python3
"""libpsl (the Public Suffix List library curl and wget use) on host names: the reference of
ActivityKit's differential test (Tests/ActivityKitTests/PublicSuffixListDifferentialTests.swift).

  psl-reference.py HOSTS       HOSTS holds one host a line; one line out for each: its
                               registrable domain, or "-" when libpsl gives none (the host is
                               a public suffix itself)

libpsl reads the very file the broker reads (`psl_load_file` on Debian's publicsuffix
package's public_suffix_list.dat), through ctypes: no Python binding is needed.
"""
import ctypes
import sys

psl = ctypes.CDLL("libpsl.so.5")
psl.psl_load_file.restype = ctypes.c_void_p
psl.psl_load_file.argtypes = [ctypes.c_char_p]
psl.psl_registrable_domain.restype = ctypes.c_char_p
psl.psl_registrable_domain.argtypes = [ctypes.c_void_p, ctypes.c_char_p]

LIST = b"/usr/share/publicsuffix/public_suffix_list.dat"
context = psl.psl_load_file(LIST)
if not context:
    sys.exit("psl-reference: libpsl could not load " + LIST.decode())
if len(sys.argv) != 2:
    sys.exit("usage: psl-reference.py HOSTS")
for line in open(sys.argv[1], encoding="utf-8"):
    host = line.strip()
    domain = psl.psl_registrable_domain(context, host.encode())
    print(domain.decode() if domain is not None else "-")
