#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/pcp/spoil.py - damage one file of a PCP archive the same way in
# either format, for tests/pcp/replay.sh.  The file is a row of records,
# each starting and ending with its length (big-endian); the first is the
# label, 132 bytes in format 2 and 808 in format 3, so a damage at a fixed
# offset would hit records in one format and the label's padding in the
# other.
#
# usage: spoil.py FILE HOW
#   ff, 55       300 bytes of that value from the 68th byte after the label
#                (the second record's body onwards)
#   at200        300 bytes of 0xff from byte 200: records in format 2, the
#                label's host name and time zone in format 3
#   half         the file cut to half its length
#   empty        the file emptied
#   label-tz     the label's time zone ("UTC", as mkarchive.py writes it)
#                and the 36 bytes after it overwritten with 0xff
import struct
import sys


def records(b):
    """(offset, length) of each whole record of @b"""
    out, off = [], 0
    while off + 4 <= len(b):
        n = struct.unpack('>I', b[off:off + 4])[0]
        if n < 8 or off + n > len(b):
            break
        out.append((off, n))
        off += n
    return out


def main(path, how):
    b = bytearray(open(path, 'rb').read())
    recs = records(b)
    if not recs:
        sys.exit(f"spoil.py: {path}: no records")
    label = recs[0][1]
    if how in ('ff', '55'):
        at = label + 68
        b[at:at + 300] = bytes([int(how, 16)]) * 300
    elif how == 'at200':
        b[200:500] = b'\xff' * 300
    elif how == 'half':
        del b[len(b) // 2:]
    elif how == 'empty':
        b = bytearray()
    elif how == 'label-tz':
        at = b.find(b'UTC\0', 0, label)
        if at < 0:
            sys.exit(f"spoil.py: {path}: no time zone UTC in the label")
        b[at:at + 40] = b'\xff' * 40
    else:
        sys.exit(f"spoil.py: unknown damage {how}")
    open(path, 'wb').write(b)


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit("usage: spoil.py FILE HOW")
    main(sys.argv[1], sys.argv[2])
