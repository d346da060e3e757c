"""Decompress the recorded cvt vectors (cvt_*.bin.xz) into a build directory.

usage: python3 unpack.py SRC_DIR DST_DIR   (Python standard library only)
"""
import glob
import lzma
import os
import sys

src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst, exist_ok=True)
for path in sorted(glob.glob(os.path.join(src, "cvt_*.bin.xz"))):
    with open(path, "rb") as f:
        data = lzma.decompress(f.read())
    with open(os.path.join(dst, os.path.basename(path)[:-3]), "wb") as f:
        f.write(data)
