#!/usr/bin/env python3
"""Asks the real CUDA driver for the private tables the CUDA runtime requests with
cuGetExportTable (docs/driver/CudartPrivateInterface.md §2): per table UUID, the return code and,
for the tables whose slot 0 holds their size in bytes, that size and which slots hold no function.
Nothing in a table is called.

    python3 export_tables.py > export_tables.json
"""
import ctypes
import json

TABLES = {  # name: the 16 bytes of the CUuuid
    "cudart_interface": "6bd5fb6c5bf4e74a8987d93912fd9df9",
    "tools_runtime_callback_hooks": "a094798c2e742e7493f20800200c0a66",
    "tools_tls": "42d85a8123f6cb478298f6e78a3aecdc",
    "context_local_storage": "c693336e1121df11a8c368f355d89593",
    "integrity_check": "d4082055bde6704b8d34ba123c66e1f2",
    "context_checks": "263e88607cd2614392f6bbd5006dfa7e",
    "ctx_create_bypass": "0ca50b8c1004929a89a7d0df10e77286",
    "heap_access": "195bcbf4d67d024aacc51d29cea631ae",
    "device_extended_rt": "b10541e1f7c7c74a9f64f223be99f1e2",
}
SIZED = {"cudart_interface", "tools_runtime_callback_hooks", "tools_tls", "integrity_check", "context_checks",
         "ctx_create_bypass", "heap_access", "device_extended_rt"}


def main():
    cuda = ctypes.CDLL("libcuda.so.1")
    assert cuda.cuInit(0) == 0
    driver = ctypes.c_int()
    cuda.cuDriverGetVersion(ctypes.byref(driver))
    get = cuda.cuGetExportTable
    get.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p]
    out = {}
    for name, hexid in TABLES.items():
        table = ctypes.c_void_p()
        rc = get(ctypes.byref(table), bytes.fromhex(hexid))
        entry = {"rc": rc}
        if rc == 0 and table.value:
            words = ctypes.cast(table, ctypes.POINTER(ctypes.c_uint64))
            if name in SIZED:
                size = words[0]
                entry["size"] = size
                entry["null_slots"] = [i for i in range(1, min(size // 8, 64)) if words[i] == 0]
            else:  # functions up to a null terminator
                n = 0
                while n < 64 and words[n]:
                    n += 1
                entry["functions"] = n
        out[name] = entry
    bad = bytes(16)
    table = ctypes.c_void_p()
    out["unknown uuid"] = {"rc": get(ctypes.byref(table), bad), "table": bool(table.value)}
    json.dump({"driver": driver.value, "tables": out}, __import__("sys").stdout, indent=1)


main()
