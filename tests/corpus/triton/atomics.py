"""Atomics: histogram with tl.atomic_add, global max with tl.atomic_max, a
compare-and-swap spin lock (tl.atomic_cas / tl.atomic_xchg)."""
import triton
import triton.language as tl


@triton.jit
def histogram(x_ptr, bins_ptr, n, nbins, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m, other=0)
    b = v % nbins
    tl.atomic_add(bins_ptr + b, 1, mask=m)


@triton.jit
def global_max(x_ptr, out_ptr, fsum_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=-2147483648)
    tl.atomic_max(out_ptr, tl.max(x, axis=0))
    tl.atomic_min(out_ptr + 1, tl.min(x, axis=0), sem="relaxed")
    tl.atomic_add(fsum_ptr, tl.sum(x.to(tl.float32), axis=0), sem="release", scope="gpu")


@triton.jit
def locked_accumulate(x_ptr, acc_ptr, lock_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    s = tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0)
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    tl.store(acc_ptr, tl.load(acc_ptr) + s)
    tl.atomic_xchg(lock_ptr, 0)


CONFIGS = [
    dict(name="histogram", fn=histogram,
         signature={"x_ptr": "*i32", "bins_ptr": "*i32", "n": "i32", "nbins": "i32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 1024}, options={"num_warps": 4}),
    dict(name="global_max", fn=global_max,
         signature={"x_ptr": "*i32", "out_ptr": "*i32", "fsum_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 512}, options={"num_warps": 4}),
    dict(name="locked_accumulate", fn=locked_accumulate,
         signature={"x_ptr": "*fp32", "acc_ptr": "*fp32", "lock_ptr": "*i32", "n": "i32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 256}, options={"num_warps": 2}),
]
