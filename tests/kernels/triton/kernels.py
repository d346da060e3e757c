"""Triton kernels of the tests/kernels suite (compiled by generate.py for cuda:80)."""
import triton
import triton.language as tl


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y * 0.5, mask=mask)


@triton.jit
def softmax_rows(x_ptr, y_ptr, cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * stride + offs, e / tl.sum(e, axis=0), mask=mask)


@triton.jit
def row_sum_max(x_ptr, sum_ptr, max_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    mx = tl.full([BLOCK], -float("inf"), dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * cols + offs, mask=offs < cols, other=0.0)
        acc += v
        mx = tl.maximum(mx, tl.where(offs < cols, v, -float("inf")))
    tl.store(sum_ptr + row, tl.sum(acc, axis=0))
    tl.store(max_ptr + row, tl.max(mx, axis=0))


@triton.jit
def int_hash(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    h = x * 0x9E3779B1
    h = h ^ (h >> 15)
    h = h * 0x85EBCA77
    h = h ^ (h >> 13)
    tl.store(out_ptr + offs, h + (x % 7) * (x // 7), mask=mask)


# name, function, signature, constexprs, options (num_warps fixes the block size).
CONFIGS = [
    dict(name="vector_add", fn=vector_add,
         signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 256}, options={"num_warps": 4}),
    dict(name="softmax_rows", fn=softmax_rows,
         signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "cols": "i32", "stride": "i32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 512}, options={"num_warps": 4}),
    dict(name="row_sum_max", fn=row_sum_max,
         signature={"x_ptr": "*fp32", "sum_ptr": "*fp32", "max_ptr": "*fp32", "cols": "i32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 128}, options={"num_warps": 4}),
    dict(name="int_hash", fn=int_hash,
         signature={"x_ptr": "*u32", "out_ptr": "*u32", "n": "i32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 256}, options={"num_warps": 2}),
]
