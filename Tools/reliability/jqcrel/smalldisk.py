"""A small disk for the server: a tmpfs of a few megabytes that a run fills
to the last byte (a file of zeros written until the kernel says ENOSPC) and
then empties again. Mounting needs root, as CI runs."""

import ctypes
import errno
import os
import shutil
import tempfile

from .world import ToolError


def can_mount():
    return os.geteuid() == 0


class SmallDisk:
    """A tmpfs of `megabytes` mounted on a fresh folder under /tmp (which
    every user can traverse, so the `postgres` user can reach it), owned by
    `owner` (a user name) when given."""

    def __init__(self, megabytes, owner=None):
        if not can_mount():
            raise ToolError("a small disk is a tmpfs mount, which needs root")
        self.path = tempfile.mkdtemp(prefix="jqc-small-disk-", dir="/tmp")
        libc = ctypes.CDLL(None, use_errno=True)
        options = f"size={megabytes}m,mode=0755".encode()
        if libc.mount(b"tmpfs", self.path.encode(), b"tmpfs", 0, options) != 0:
            reason = os.strerror(ctypes.get_errno())
            os.rmdir(self.path)
            raise ToolError(f"cannot mount a {megabytes} MB tmpfs on {self.path}: {reason}")
        self.libc = libc
        if owner:
            shutil.chown(self.path, owner, owner)
        self.filler = os.path.join(self.path, ".filler")
        self.mounted = True

    def folder(self, name, owner=None):
        """A folder on the small disk."""
        path = os.path.join(self.path, name)
        os.makedirs(path, exist_ok=True)
        if owner:
            shutil.chown(path, owner, owner)
        return path

    def fill(self):
        """Writes zeros until the disk has no byte left."""
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            size = 1 << 16
            while size:
                try:
                    os.write(fd, bytes(size))
                except OSError as error:
                    if error.errno != errno.ENOSPC:
                        raise
                    size //= 2    # what is left is smaller than the block: halve it down to one byte
        finally:
            os.close(fd)

    def make_room(self):
        if os.path.exists(self.filler):
            os.remove(self.filler)

    def unmount(self):
        if not self.mounted:
            return
        self.mounted = False
        if self.libc.umount2(self.path.encode(), 2) != 0:    # MNT_DETACH: the cluster may still hold a file
            raise ToolError(f"cannot unmount {self.path}: {os.strerror(ctypes.get_errno())}")
        os.rmdir(self.path)
