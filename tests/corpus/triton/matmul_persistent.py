"""Persistent matmul with a static tile loop over program ids, int8 tl.dot
with int32 accumulation, and fp16 dot with fused bias + GELU epilogue."""
import triton
import triton.language as tl


@triton.jit
def int8_matmul_persistent(a_ptr, b_ptr, c_ptr, M, N, K, NUM_SMS: tl.constexpr,
                           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    start = tl.program_id(0)
    tiles_n = tl.cdiv(N, BN)
    total = tl.cdiv(M, BM) * tiles_n
    for tile in range(start, total, NUM_SMS):
        pm = tile // tiles_n
        pn = tile % tiles_n
        rm = pm * BM + tl.arange(0, BM)
        rn = pn * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.int32)
        for k in range(0, K, BK):
            a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0)
            b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0)
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def linear_gelu(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(x_ptr + rm[:, None] * K + (k + rk)[None, :], mask=rm[:, None] < M, other=0.0)
        w = tl.load(w_ptr + rn[None, :] * K + (k + rk)[:, None], mask=rn[None, :] < N, other=0.0)
        acc += tl.dot(x, w)
    acc += tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    y = 0.5 * acc * (1.0 + tl.math.erf(acc * 0.7071067811865476))
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], y.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


CONFIGS = [
    dict(name="int8_matmul_persistent", fn=int8_matmul_persistent,
         signature={"a_ptr": "*i8", "b_ptr": "*i8", "c_ptr": "*i32", "M": "i32", "N": "i32", "K": "i32",
                    "NUM_SMS": "constexpr", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
         constexprs={"NUM_SMS": 132, "BM": 128, "BN": 128, "BK": 64}, options={"num_warps": 8, "num_stages": 3}),
    dict(name="linear_gelu", fn=linear_gelu,
         signature={"x_ptr": "*fp16", "w_ptr": "*fp16", "b_ptr": "*fp32", "y_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                    "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
         constexprs={"BM": 64, "BN": 64, "BK": 32}, options={"num_warps": 4, "num_stages": 3}),
]
