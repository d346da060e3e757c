"""Flash-attention forward after Triton's fused-attention tutorial (its STAGE split of the causal
loop, the -1e6 additive mask, the log2-sum-exp2 output; attention.py is a shorter kernel), with
plain pointer loads instead of tensor descriptors, for the tests/kernels suite, compiled for
cuda:90 so that both Q K^T and P V are warpgroup MMAs (wgmma.mma_async). f16 Q, K, V, f32
accumulation, online softmax in base 2 (exp2), causal or not.

Q, K, V and O are (heads, N_CTX, HEAD_DIM) f16, contiguous; program (i, h) computes rows
i*BLOCK_M .. of head h: O = softmax(Q K^T * sm_scale [+ causal mask]) V, and
M = the row's log2-sum-exp2 of Q K^T * sm_scale * log2(e) (f32, heads x N_CTX)."""
import triton
import triton.language as tl


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, start_m, qk_scale, offs_m, offs_n, offs_d, HEAD_DIM,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr, N_CTX):
    # STAGE 1: the blocks left of the diagonal (causal), 2: the diagonal block (causal, masked),
    # 3: every block (not causal).
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
    else:
        lo, hi = 0, N_CTX
    for start_n in range(lo, hi, BLOCK_N):
        cols = start_n + offs_n
        # K^T tile (HEAD_DIM x BLOCK_N) and V tile (BLOCK_N x HEAD_DIM), plain pointer loads.
        k = tl.load(k_base + cols[None, :] * HEAD_DIM + offs_d[:, None])
        qk = tl.dot(q, k)
        if STAGE == 2:
            mask = offs_m[:, None] >= cols[None, :]
            qk = qk * qk_scale + tl.where(mask, 0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(v_base + cols[:, None] * HEAD_DIM + offs_d[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    return acc, l_i, m_i


@triton.jit
def attn_fwd(q_ptr, k_ptr, v_ptr, o_ptr, m_ptr, sm_scale, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
             BLOCK_N: tl.constexpr, STAGE: tl.constexpr):
    """STAGE 3: causal (the blocks left of the diagonal, then the diagonal one masked);
    STAGE 1: not causal (every block, the inner loop's STAGE 3)."""
    start_m = tl.program_id(0)
    head = tl.program_id(1)
    base = head.to(tl.int64) * N_CTX * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # 1/ln(2): exp(x) = exp2(x * log2(e))
    q = tl.load(q_ptr + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    if STAGE & 1:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_ptr + base, v_ptr + base, start_m, qk_scale, offs_m,
                                        offs_n, offs_d, HEAD_DIM, BLOCK_M, BLOCK_N, 4 - STAGE, N_CTX)
    if STAGE & 2:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_ptr + base, v_ptr + base, start_m, qk_scale, offs_m,
                                        offs_n, offs_d, HEAD_DIM, BLOCK_M, BLOCK_N, 2, N_CTX)
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    tl.store(m_ptr + head * N_CTX + offs_m, m_i)
    tl.store(o_ptr + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], acc.to(tl.float16))


def _cfg(name, causal, block_m, block_n, warps, stages):
    constexprs = {"HEAD_DIM": 64, "BLOCK_M": block_m, "BLOCK_N": block_n, "STAGE": 3 if causal else 1}
    sig = {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16", "m_ptr": "*fp32",
           "sm_scale": "fp32", "N_CTX": "i32", **{k: "constexpr" for k in constexprs}}
    # Pointers and N_CTX declared multiples of 16, as Triton's launcher specializes such a launch.
    attrs = {(i,): [["tt.divisibility", 16]] for i in (0, 1, 2, 3, 4, 6)}
    return dict(name=name, fn=attn_fwd, arch=90, signature=sig, constexprs=constexprs, attrs=attrs,
                options={"num_warps": warps, "num_stages": stages})


# name, causal, BLOCK_M, BLOCK_N, num_warps, num_stages (both stage K and V through shared memory
# with cp.async; dynamic shared memory stays within the 48 KiB a launch gets without opting in).
CONFIGS = [
    _cfg("fused_attn90", False, 64, 64, 4, 2),
    _cfg("fused_attn90_causal", True, 128, 32, 8, 3),
]
