"""2D reductions along both axes (sum, max, argmax) with keep_dims and masks."""
import triton
import triton.language as tl


@triton.jit
def row_stats(x_ptr, sum_ptr, max_ptr, argmax_ptr, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    m = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=m, other=float("-inf"))
    s = tl.sum(tl.where(m, x, 0.0), axis=1)
    mx = tl.max(x, axis=1)
    am = tl.argmax(x, axis=1)
    tl.store(sum_ptr + rows, s, mask=rows < M)
    tl.store(max_ptr + rows, mx, mask=rows < M)
    tl.store(argmax_ptr + rows, am, mask=rows < M)


@triton.jit
def col_sum_f64(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BN + tl.arange(0, BN)
    acc = tl.zeros([BN], dtype=tl.float64)
    for r0 in range(0, M, BM):
        rows = r0 + tl.arange(0, BM)
        m = (rows[:, None] < M) & (cols[None, :] < N)
        acc += tl.sum(tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=m, other=0.0), axis=0)
    tl.store(out_ptr + cols, acc, mask=cols < N)


CONFIGS = [
    dict(name="row_stats", fn=row_stats,
         signature={"x_ptr": "*fp32", "sum_ptr": "*fp32", "max_ptr": "*fp32", "argmax_ptr": "*i32", "M": "i32", "N": "i32",
                    "stride": "i32", "BM": "constexpr", "BN": "constexpr"},
         constexprs={"BM": 16, "BN": 256}, options={"num_warps": 4}),
    dict(name="col_sum_f64", fn=col_sum_f64,
         signature={"x_ptr": "*fp64", "out_ptr": "*fp64", "M": "i32", "N": "i32", "BM": "constexpr", "BN": "constexpr"},
         constexprs={"BM": 32, "BN": 64}, options={"num_warps": 4}),
]
