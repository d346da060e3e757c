"""A flash-attention forward kernel for the tests/kernels suite, compiled for cuda:90 by
generate.py so that both matrix products (Q K^T and P V) run on wgmma.mma_async.

Out = softmax(Q K^T * scale) V per (batch, head), with the online softmax of FlashAttention: each
program takes BM rows of Q, walks K and V in blocks of BN rows, keeps a running row maximum and
row sum (exp2 with log2(e) folded into the scale) and rescales its f32 accumulator. Q, K, V and
Out are f16, [batch * heads, seq, D] contiguous; pointer loads (no tensor descriptors). CAUSAL
masks keys after the query and stops at the diagonal block.
"""
import triton
import triton.language as tl


@triton.jit
def attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, seq, scale, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                  CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    head = tl.program_id(1)
    base = head.to(tl.int64) * seq * D
    rm = start_m * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + base + rm[:, None] * D + rd[None, :])
    m_i = tl.full([BM], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    qk_scale = scale * 1.44269504  # log2(e)
    hi = (start_m + 1) * BM if CAUSAL else seq
    for start_n in range(0, hi, BN):
        rn = start_n + tl.arange(0, BN)
        k = tl.load(k_ptr + base + rn[None, :] * D + rd[:, None])  # K^T: D x BN
        qk = tl.dot(q, k) * qk_scale
        if CAUSAL:
            qk = tl.where(rm[:, None] >= rn[None, :], qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptr + base + rn[:, None] * D + rd[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + base + rm[:, None] * D + rd[None, :], acc.to(tl.float16))


def _config(name, causal):
    return dict(name=name, fn=attention_fwd, arch=90,
                signature={"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16", "seq": "i32",
                           "scale": "fp32", "D": "constexpr", "BM": "constexpr", "BN": "constexpr",
                           "CAUSAL": "constexpr"},
                constexprs={"D": 64, "BM": 64, "BN": 64, "CAUSAL": causal},
                attrs={(i,): [["tt.divisibility", 16]] for i in range(5)},
                options={"num_warps": 4, "num_stages": 2})


CONFIGS = [_config("attention90", False), _config("attention90_causal", True)]
