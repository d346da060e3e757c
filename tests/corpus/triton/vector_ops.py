"""Element-wise Triton kernels: vector add, fused multiply-add with masks and
tl.where, and integer bit operations."""
import triton
import triton.language as tl


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


@triton.jit
def leaky_clamp(x_ptr, out_ptr, n, alpha, lo, hi, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = tl.where(x > 0, x, x * alpha)
    y = tl.minimum(tl.maximum(y, lo), hi)
    y = tl.where(x != x, 0.0, y)  # NaN -> 0
    tl.store(out_ptr + offs, y.to(tl.float16), mask=m)


@triton.jit
def int_bits(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(a_ptr + offs, mask=m, other=0)
    b = tl.load(b_ptr + offs, mask=m, other=1)
    r = (a ^ b) + (a & 0xFF) * (b | 3) + (a >> 3) - (b << 2) + a // tl.where(b == 0, 1, b) + a % 7
    r = r + tl.umulhi(a.to(tl.uint32), b.to(tl.uint32)).to(tl.int32)
    tl.store(out_ptr + offs, r, mask=m)


CONFIGS = [
    dict(name="vector_add", fn=vector_add,
         signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 1024}, options={"num_warps": 4}),
    dict(name="leaky_clamp", fn=leaky_clamp,
         signature={"x_ptr": "*fp32", "out_ptr": "*fp16", "n": "i32", "alpha": "fp32", "lo": "fp32", "hi": "fp32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 512}, options={"num_warps": 4}),
    dict(name="int_bits", fn=int_bits,
         signature={"a_ptr": "*i32", "b_ptr": "*i32", "out_ptr": "*i32", "n": "i32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 256}, options={"num_warps": 2}),
]
