"""Prefix sums: tl.cumsum along rows, tl.cumprod, and a generic associative
scan with a user combine function."""
import triton
import triton.language as tl


@triton.jit
def _combine_max(a, b):
    return tl.maximum(a, b)


@triton.jit
def cumsum_rows(x_ptr, y_ptr, z_ptr, w_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=m, other=0.0)
    tl.store(y_ptr + row * N + cols, tl.cumsum(x, axis=0), mask=m)
    tl.store(z_ptr + row * N + cols, tl.cumprod(tl.where(m, x, 1.0), axis=0, reverse=True), mask=m)
    tl.store(w_ptr + row * N + cols, tl.associative_scan(x, 0, _combine_max), mask=m)


CONFIGS = [
    dict(name="cumsum", fn=cumsum_rows,
         signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "z_ptr": "*fp32", "w_ptr": "*fp32", "N": "i32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 1024}, options={"num_warps": 4}),
]
