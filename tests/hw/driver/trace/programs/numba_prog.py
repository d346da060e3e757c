"""numba-cuda for trace.sh: a @cuda.jit kernel, copies to and from the device."""
try:
    import numpy as np
    from numba import cuda
except ImportError as e:
    print("skip:", e)
    raise SystemExit(77)


@cuda.jit
def add(a, b, c):
    i = cuda.grid(1)
    if i < c.size:
        c[i] = a[i] + b[i]


a = np.arange(4096, dtype=np.float32)
d_a, d_b = cuda.to_device(a), cuda.to_device(2 * a)
d_c = cuda.device_array_like(d_a)
add[16, 256](d_a, d_b, d_c)
assert (d_c.copy_to_host() == 3 * a).all()
print("ok")
