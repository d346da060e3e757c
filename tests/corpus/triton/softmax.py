"""Row-wise softmax (one program per row), fp16 in / fp32 math / fp16 out."""
import triton
import triton.language as tl


@triton.jit
def softmax(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(in_ptr + row * in_stride + cols, mask=m, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_stride + cols, (num / den).to(tl.float16), mask=m)


CONFIGS = [
    dict(name="softmax", fn=softmax,
         signature={"out_ptr": "*fp16", "in_ptr": "*fp16", "in_stride": "i32", "out_stride": "i32", "n_cols": "i32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 1024}, options={"num_warps": 8}),
]
