"""Block-scaled GEMM with tl.dot_scaled (sm_100a only): C[M, N] fp32 = (A * sa) @ (B * sb).

Storage (all row-major, K contiguous):
  A   [M, K // PACK]  bytes; PACK = 2 for e2m1 (two fp4 per byte along K, first element in
                      the low nibble), 1 for e4m3
  B   [N, K // PACK]  bytes, i.e. B is stored transposed (K-major); the kernel loads it as [K, N]
  SA  [M, K // VEC]   one scale per VEC consecutive K elements (e8m0 bytes, or e4m3 for nvfp4)
  SB  [N, K // VEC]   (not transposed)
  C   [M, N]          fp32
Loads are masked on K only (like matmul.py); one program per BM x BN tile of C.
On cuda:100 tl.dot_scaled lowers to tcgen05.mma ... .block_scale with the scales in TMEM
(written there with tcgen05.st from registers).

dot_scaled_gemm_tma is the same product with A, B and the scales loaded through host tensor
descriptors (TMA) and the scales stored pre-shuffled in the tcgen05 scale-factor layout
  SA  [M // 128, K // VEC // 4, 32, 16]  bytes, SA[i, j, r, 4 * q + s] = scale of row
      128 * i + 32 * q + r for the K block 4 * j + s   (SB likewise with N)
which Triton moves to TMEM with tcgen05.cp instead of tcgen05.st."""
import triton
import triton.language as tl


@triton.jit
def dot_scaled_gemm(a_ptr, b_ptr, c_ptr, sa_ptr, sb_ptr, M, N, K,
                    stride_am, stride_ak, stride_bn, stride_bk, stride_cm, stride_cn,
                    stride_sam, stride_sak, stride_sbn, stride_sbk,
                    BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                    FMT_A: tl.constexpr, FMT_B: tl.constexpr, PACK: tl.constexpr, VEC: tl.constexpr):
    PK: tl.constexpr = BK // PACK     # bytes of one K step of A / B
    SK: tl.constexpr = BK // VEC      # scales of one K step
    num_n = tl.cdiv(N, BN)
    pid = tl.program_id(0)
    pid_m = pid // num_n
    pid_n = pid % num_n
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, PK)
    rs = tl.arange(0, SK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    sa_ptrs = sa_ptr + rm[:, None] * stride_sam + rs[None, :] * stride_sak
    sb_ptrs = sb_ptr + rn[:, None] * stride_sbn + rs[None, :] * stride_sbk
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        k_left = K - k * BK
        a = tl.load(a_ptrs, mask=rk[None, :] < k_left // PACK, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < k_left // PACK, other=0.0)
        sa = tl.load(sa_ptrs, mask=rs[None, :] < k_left // VEC, other=0.0)
        sb = tl.load(sb_ptrs, mask=rs[None, :] < k_left // VEC, other=0.0)
        acc = tl.dot_scaled(a, sa, FMT_A, b, sb, FMT_B, acc)
        a_ptrs += PK * stride_ak
        b_ptrs += PK * stride_bk
        sa_ptrs += SK * stride_sak
        sb_ptrs += SK * stride_sbk
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_ptrs, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def dot_scaled_gemm_tma(a_desc, b_desc, sa_desc, sb_desc, c_ptr, M, N, K, stride_cm,
                        BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                        FMT: tl.constexpr, PACK: tl.constexpr, VEC: tl.constexpr):
    PK: tl.constexpr = BK // PACK         # bytes of one K step of A / B
    RK: tl.constexpr = BK // VEC // 4     # 4-scale groups of one K step
    num_n = tl.cdiv(N, BN)
    pid = tl.program_id(0)
    pid_m = pid // num_n
    pid_n = pid % num_n
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([pid_m * BM, k * PK])
        bt = b_desc.load([pid_n * BN, k * PK])
        sa = sa_desc.load([pid_m * (BM // 128), k * RK, 0, 0])
        sb = sb_desc.load([pid_n * (BN // 128), k * RK, 0, 0])
        # [BM/128, RK, 32, 4 (row quarter), 4 (K block)] -> [BM, BK / VEC]
        sa = sa.reshape(BM // 128, RK, 32, 4, 4).trans(0, 3, 2, 1, 4).reshape(BM, BK // VEC)
        sb = sb.reshape(BN // 128, RK, 32, 4, 4).trans(0, 3, 2, 1, 4).reshape(BN, BK // VEC)
        acc = tl.dot_scaled(a, sa, FMT, bt.T, sb, FMT, acc)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def _sig(t_ab, t_scale):
    return {"a_ptr": t_ab, "b_ptr": t_ab, "c_ptr": "*fp32", "sa_ptr": t_scale, "sb_ptr": t_scale,
            "M": "i32", "N": "i32", "K": "i32",
            "stride_am": "i32", "stride_ak": "constexpr", "stride_bn": "i32", "stride_bk": "constexpr",
            "stride_cm": "i32", "stride_cn": "constexpr",
            "stride_sam": "i32", "stride_sak": "constexpr", "stride_sbn": "i32", "stride_sbk": "constexpr",
            "BM": "constexpr", "BN": "constexpr", "BK": "constexpr",
            "FMT_A": "constexpr", "FMT_B": "constexpr", "PACK": "constexpr", "VEC": "constexpr"}


def _ce(fmt, pack, vec, bm=128, bn=128, bk=128):
    return {"stride_ak": 1, "stride_bk": 1, "stride_cn": 1, "stride_sak": 1, "stride_sbk": 1,
            "BM": bm, "BN": bn, "BK": bk, "FMT_A": fmt, "FMT_B": fmt, "PACK": pack, "VEC": vec}


def _sig_tma(t_ab, t_scale, pk, rk, bm=128, bn=128):
    return {"a_desc": f"tensordesc<{t_ab}[{bm}, {pk}]>", "b_desc": f"tensordesc<{t_ab}[{bn}, {pk}]>",
            "sa_desc": f"tensordesc<{t_scale}[{bm // 128}, {rk}, 32, 16]>",
            "sb_desc": f"tensordesc<{t_scale}[{bn // 128}, {rk}, 32, 16]>",
            "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32", "stride_cm": "i32",
            "BM": "constexpr", "BN": "constexpr", "BK": "constexpr",
            "FMT": "constexpr", "PACK": "constexpr", "VEC": "constexpr"}


def _ce_tma(fmt, pack, vec, bm=128, bn=128, bk=128):
    return {"BM": bm, "BN": bn, "BK": bk, "FMT": fmt, "PACK": pack, "VEC": vec}


CONFIGS = [
    # mxfp8: e4m3 operands, e8m0 scales, 32 elements per scale
    dict(name="dot_scaled_mxfp8", fn=dot_scaled_gemm, signature=_sig("*fp8e4nv", "*u8"),
         constexprs=_ce("e4m3", 1, 32), options={"num_warps": 4, "num_stages": 2}, targets=(100,)),
    # mxfp4: e2m1 operands packed two per byte along K, e8m0 scales, 32 elements per scale
    dict(name="dot_scaled_mxfp4", fn=dot_scaled_gemm, signature=_sig("*u8", "*u8"),
         constexprs=_ce("e2m1", 2, 32), options={"num_warps": 4, "num_stages": 2}, targets=(100,)),
    # nvfp4: e2m1 operands, e4m3 scales, 16 elements per scale
    dict(name="dot_scaled_nvfp4", fn=dot_scaled_gemm, signature=_sig("*u8", "*fp8e4nv"),
         constexprs=_ce("e2m1", 2, 16), options={"num_warps": 4, "num_stages": 2}, targets=(100,)),
    # TMA loads, pre-shuffled scales (tcgen05.cp): mxfp8 and nvfp4
    dict(name="dot_scaled_mxfp8_tma", fn=dot_scaled_gemm_tma, signature=_sig_tma("fp8e4nv", "u8", 128, 1),
         constexprs=_ce_tma("e4m3", 1, 32), options={"num_warps": 4, "num_stages": 2}, targets=(100,)),
    dict(name="dot_scaled_nvfp4_tma", fn=dot_scaled_gemm_tma, signature=_sig_tma("u8", "fp8e4nv", 64, 2),
         constexprs=_ce_tma("e2m1", 2, 16), options={"num_warps": 4, "num_stages": 2}, targets=(100,)),
]
