"""Flash-attention style forward pass: two tl.dot per K/V block, online
softmax with running max and denominator, causal masking."""
import triton
import triton.language as tl


@triton.jit
def attn_fwd(Q, K, V, O, sm_scale, seq_len, stride_s,
             BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    head = tl.program_id(1)
    base = head * seq_len * stride_s
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + base + offs_m[:, None] * stride_s + offs_d[None, :], mask=offs_m[:, None] < seq_len, other=0.0)
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    hi = (start_m + 1) * BM if CAUSAL else seq_len
    for start_n in range(0, hi, BN):
        kn = start_n + offs_n
        k = tl.load(K + base + kn[None, :] * stride_s + offs_d[:, None], mask=kn[None, :] < seq_len, other=0.0)
        qk = tl.dot(q, k) * sm_scale
        if CAUSAL:
            qk = tl.where(offs_m[:, None] >= kn[None, :], qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp2((qk - m_new[:, None]) * 1.44269504)
        alpha = tl.exp2((m_i - m_new) * 1.44269504)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + base + kn[:, None] * stride_s + offs_d[None, :], mask=kn[:, None] < seq_len, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(O + base + offs_m[:, None] * stride_s + offs_d[None, :], acc.to(tl.float16), mask=offs_m[:, None] < seq_len)


CONFIGS = [
    dict(name="attention_causal", fn=attn_fwd,
         signature={"Q": "*fp16", "K": "*fp16", "V": "*fp16", "O": "*fp16", "sm_scale": "fp32", "seq_len": "i32", "stride_s": "i32",
                    "BM": "constexpr", "BN": "constexpr", "D": "constexpr", "CAUSAL": "constexpr"},
         constexprs={"BM": 64, "BN": 64, "D": 64, "CAUSAL": True}, options={"num_warps": 4, "num_stages": 2}),
]
