"""Triton tl.dot kernels of the tests/kernels suite (compiled by generate.py, each for the target
its config names: cuda:80 for f16/bf16/tf32/fp32, cuda:89 for fp8, whose mma needs sm_89)."""
import triton
import triton.language as tl


@triton.jit
def dot_gemm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
             PREC: tl.constexpr):
    """C (f32, M x N) = A (M x K, row-major) @ B (K x N, row-major), one BM x BN tile a program;
    PREC is tl.dot's input_precision (used for f32 inputs only)."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc, input_precision=PREC)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def dot_gemm_masked(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """dot_gemm for any M, N, K: loads outside A or B read as 0 and stores outside C are masked off."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K),
                    other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N),
                    other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def _gemm(name, elem, arch, prec="ieee"):
    return dict(name=name, fn=dot_gemm, arch=arch,
                signature={"a_ptr": "*" + elem, "b_ptr": "*" + elem, "c_ptr": "*fp32", "M": "i32", "N": "i32",
                           "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr",
                           "PREC": "constexpr"},
                constexprs={"BM": 32, "BN": 32, "BK": 32, "PREC": prec},
                options={"num_warps": 4, "num_stages": 1})


def _pipelined(name, fn, constexprs, divisible):
    """f16 in, f32 out, num_stages=3: Triton software-pipelines the loads through shared memory
    with cp.async, commit_group and wait_group. `divisible`: the i32 arguments Triton may assume are
    multiples of 16 (then it copies 16 bytes a cp.async), as it does by default for a launch whose
    sizes are."""
    sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
           **{k: "constexpr" for k in constexprs}}
    attrs = {(i,): [["tt.divisibility", 16]] for i in range(3)}
    attrs.update({(3 + i,): [["tt.divisibility", 16]] for i, arg in enumerate("MNK") if arg in divisible})
    return dict(name=name, fn=fn, arch=80, signature=sig, constexprs=constexprs, attrs=attrs,
                options={"num_warps": 4, "num_stages": 3})


# name, function, target arch, signature, constexprs, options (num_warps fixes the block size;
# num_stages=1: no software pipelining), and attrs (argument divisibility) where given.
CONFIGS = [
    _gemm("dot_f16", "fp16", 80),
    _gemm("dot_bf16", "bf16", 80),
    _gemm("dot_tf32", "fp32", 80, "tf32"),
    _gemm("dot_fp32_ieee", "fp32", 80, "ieee"),
    _gemm("dot_fp8e4m3", "fp8e4nv", 89),
    _gemm("dot_fp8e5m2", "fp8e5", 89),
    _pipelined("dot_f16_pipelined", dot_gemm, {"BM": 32, "BN": 32, "BK": 32, "PREC": "ieee"}, "MNK"),
    _pipelined("dot_f16_masked", dot_gemm_masked, {"BM": 32, "BN": 32, "BK": 32}, "MNK"),
]
