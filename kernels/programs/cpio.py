#!/usr/bin/env python3
"""cpio.py ROOT OUT: ROOT's tree as an uncompressed "newc" cpio archive
(Documentation/driver-api/early-userspace/buffer-format.rst), the same
bytes every time: entries sorted by path, inode numbers counted from a
fixed base, mtime 0, owner root. The kernel unpacks archives one after
another, so hotsim appends this one to its own initramfs."""
import os
import sys

INO_BASE = 0x1000  # above the inode numbers of hotsim's own entries (sim/vm/initramfs.c)


def entry(out, ino, mode, name, data=b""):
    nb = name.encode() + b"\0"
    fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(nb), 0]
    head = b"070701" + b"".join(b"%08X" % v for v in fields)
    out.write(head + nb + b"\0" * ((4 - (110 + len(nb)) % 4) % 4))
    out.write(data + b"\0" * ((4 - len(data) % 4) % 4))


def main(root, path):
    names = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for n in dirs + sorted(files):
            names.append(os.path.relpath(os.path.join(d, n), root))
    with open(path + ".tmp", "wb") as out:
        for ino, rel in enumerate(sorted(names), INO_BASE):
            full = os.path.join(root, rel)
            st = os.lstat(full)
            if os.path.islink(full):
                entry(out, ino, 0o120777, rel, os.readlink(full).encode())
            elif os.path.isdir(full):
                entry(out, ino, 0o40755, rel)
            else:
                with open(full, "rb") as f:
                    entry(out, ino, 0o100000 | (st.st_mode & 0o755), rel, f.read())
        entry(out, 0, 0, "TRAILER!!!")
    os.rename(path + ".tmp", path)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: cpio.py ROOT OUT")
    main(sys.argv[1], sys.argv[2])
