#!/usr/bin/python3
# hanging-mount.py: a FUSE file system whose one file's reads block until released (tests only).
#
#   /usr/bin/python3 hanging-mount.py MOUNTPOINT CONTENT
#
# MOUNTPOINT shows one file, `hanging.json`, of CONTENT's length. Listing the directory and
# stat(2) answer at once; every read of the file waits until a line arrives on standard input
# (or standard input closes), as a file on a file system that stopped answering would (a hung
# NFS server, a stuck FUSE daemon), then returns CONTENT. "ready" is printed once mounted.
import errno
import stat
import sys
import threading

from fusepy import FUSE, FuseOSError, Operations

mountpoint, content = sys.argv[1], sys.argv[2].encode()
released = threading.Event()


def wait_for_release():
    sys.stdin.readline()
    released.set()


class Hanging(Operations):
    def init(self, path):
        threading.Thread(target=wait_for_release, daemon=True).start()
        print("ready", flush=True)

    def getattr(self, path, fh=None):
        if path == "/":
            return dict(st_mode=stat.S_IFDIR | 0o755, st_nlink=2)
        if path == "/hanging.json":
            return dict(st_mode=stat.S_IFREG | 0o644, st_nlink=1, st_size=len(content))
        raise FuseOSError(errno.ENOENT)

    def readdir(self, path, fh):
        return [".", "..", "hanging.json"]

    def read(self, path, size, offset, fh):
        released.wait()
        return content[offset:offset + size]


FUSE(Hanging(), mountpoint, foreground=True, nothreads=False, direct_io=True)
