"""CuPy for trace.sh: an elementwise kernel (NVRTC-compiled) and a cuBLAS matrix product."""
try:
    import cupy as cp
except ImportError as e:
    print("skip:", e)
    raise SystemExit(77)

a = cp.arange(1 << 16, dtype=cp.float32)
b = a * 2 + 1
m = cp.ones((256, 256), dtype=cp.float32)
p = m @ m
cp.cuda.Device().synchronize()
assert float(b[3]) == 7.0 and float(p[0, 0]) == 256.0
print("ok")
