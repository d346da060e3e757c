"""Seeded dropout with tl.rand (Philox), and Gaussian noise with tl.randn."""
import triton
import triton.language as tl


@triton.jit
def dropout(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    r = tl.rand(seed, offs)
    keep = r > p
    tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=m)


@triton.jit
def add_noise(x_ptr, out_ptr, n, sigma, seed, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(out_ptr + offs, x + sigma * tl.randn(seed, offs), mask=m)


CONFIGS = [
    dict(name="dropout", fn=dropout,
         signature={"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "p": "fp32", "seed": "i32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 1024}, options={"num_warps": 4}),
    dict(name="add_noise", fn=add_noise,
         signature={"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "sigma": "fp32", "seed": "i32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 512}, options={"num_warps": 4}),
]
