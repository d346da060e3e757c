#!/usr/bin/env python3
"""Asks the real CUDA driver what cuGetProcAddress returns: for every driver entry point cuda.h
declares, each CUDA version a runtime may ask for and each stream flag, the exported symbol the
returned pointer is (dladdr). The drop-in libcuda.so.1 (issue 19) answers from this table.

    python3 proc_address.py /usr/local/cuda/include/cuda.h > proc_address.json

Writes {"driver": version, "versions": [...], "flags": {...}, "symbols": {name: {flag: [[from,
to, symbol], ...]}}, "answers": {...}}: the symbol each version range resolves to (null where the
driver gives no function), and the return code and symbol status of some edge requests.
"""
import ctypes
import json
import re
import sys

VERSIONS = [2000, 2010, 2020, 2030, 3000, 3010, 3020, 4000, 4010, 4020, 5000, 5050, 6000, 6050, 7000, 7050, 8000,
            9000, 9010, 9020, 10000, 10010, 10020, 11000, 11020, 11040, 11060, 11080, 12000, 12010, 12020, 12030, 12040, 12050, 12060, 12080, 12090,
            13000, 13010, 13020]
FLAGS = {"default": 0, "legacy_stream": 1, "per_thread_default_stream": 2}


class DlInfo(ctypes.Structure):
    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p), ("dli_sname", ctypes.c_char_p),
                ("dli_saddr", ctypes.c_void_p)]


def main():
    header = open(sys.argv[1]).read()
    names = sorted(set(re.findall(r"CUresult\s+CUDAAPI\s+(cu\w+)\s*\(", header)))
    # cuda.h maps the unversioned names to versioned ones (#define cuMemAlloc cuMemAlloc_v2): ask
    # for the base names, as the runtime does
    base = sorted({re.sub(r"(_v\d+)?(_ptds|_ptsz)?$", "", n) for n in names})
    cuda = ctypes.CDLL("libcuda.so.1")
    libdl = ctypes.CDLL("libdl.so.2")
    libdl.dladdr.argtypes = [ctypes.c_void_p, ctypes.POINTER(DlInfo)]
    assert cuda.cuInit(0) == 0
    driver = ctypes.c_int()
    cuda.cuDriverGetVersion(ctypes.byref(driver))
    get = cuda.cuGetProcAddress_v2
    get.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_int, ctypes.c_uint64,
                    ctypes.POINTER(ctypes.c_int)]
    table = {}
    for name in base:
        per_flag = {}
        for fname, flag in FLAGS.items():
            ranges = []
            for v in VERSIONS:
                fn, status = ctypes.c_void_p(), ctypes.c_int()
                rc = get(name.encode(), ctypes.byref(fn), v, flag, ctypes.byref(status))
                sym = None
                if rc == 0 and fn.value:
                    info = DlInfo()
                    if libdl.dladdr(fn, ctypes.byref(info)) and info.dli_sname:
                        sym = info.dli_sname.decode()
                    else:
                        sym = "?"
                if ranges and ranges[-1][2] == sym:
                    ranges[-1][1] = v
                else:
                    ranges.append([v, v, sym])
            per_flag[fname] = ranges
        if any(r[2] for rs in per_flag.values() for r in rs):
            table[name] = per_flag
    answers = {}
    for label, name, version, with_status in [("unknown symbol", b"cuNoSuchFunction", 12000, True),
                                              ("unknown symbol, no status", b"cuNoSuchFunction", 12000, False),
                                              ("empty name", b"", 12000, True),
                                              ("empty name, no status", b"", 12000, False),
                                              ("version above the driver's", b"cuMemAlloc", driver.value + 10, True),
                                              ("too old for the symbol", b"cuLaunchKernelEx", 11000, True),
                                              ("too old, no status", b"cuLaunchKernelEx", 11000, False)]:
        fn, status = ctypes.c_void_p(), ctypes.c_int(-1)
        rc = get(name, ctypes.byref(fn), version, 0, ctypes.byref(status) if with_status else None)
        answers[label] = {"rc": rc, "status": status.value if with_status else None, "function": bool(fn.value)}
    json.dump({"driver": driver.value, "versions": VERSIONS, "flags": FLAGS, "symbols": table, "answers": answers},
              sys.stdout, indent=None, separators=(",", ":"))


main()
