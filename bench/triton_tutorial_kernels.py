"""The kernels of Triton's tutorials, written for this bench (not copied), each with the launch
its tutorial checks: `cases(target)` maps a name to a function that launches it once on PyTorch CPU
tensors. bench/triton_backend.py times them through ptxvm's backend and under TRITON_INTERPRET=1.
"""
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit  # 01 vector add
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + i, tl.load(x + i, mask=i < n) + tl.load(y + i, mask=i < n), mask=i < n)


@triton.jit  # 02 fused softmax: each program walks rows
def softmax_kernel(out, inp, rows, cols, BLOCK: tl.constexpr):
    c = tl.arange(0, BLOCK)
    for row in tl.range(tl.program_id(0), rows, tl.num_programs(0)):
        x = tl.load(inp + row * cols + c, mask=c < cols, other=-float("inf"))
        e = tl.exp(x - tl.max(x, axis=0))
        tl.store(out + row * cols + c, e / tl.sum(e, axis=0), mask=c < cols)


@triton.jit  # 03 matmul: grouped tile order, fp32 accumulation, fp16 result
def matmul_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(N, BN)
    in_group = GROUP * tiles_n
    first_m = (pid // in_group) * GROUP
    rows = min(tl.cdiv(M, BM) - first_m, GROUP)
    pm = first_m + (pid % in_group) % rows
    pn = (pid % in_group) // rows
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(tl.load(a + rm[:, None] * K + (k + rk)[None, :]), tl.load(b + (k + rk)[:, None] * N + rn[None, :]), acc)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit  # 04 low-memory dropout: the mask from a seed
def dropout_kernel(x, out, n, p, seed, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + i, mask=i < n)
    keep = tl.rand(seed, i) > p
    tl.store(out + i, tl.where(keep, v / (1 - p), 0.0), mask=i < n)


@triton.jit  # 05 layer norm, forward: a row per program, in blocks
def layer_norm_fwd(x, y, w, b, mean, rstd, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x += row * N
    y += row * N
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for o in range(0, N, BLOCK):
        c = o + tl.arange(0, BLOCK)
        s += tl.load(x + c, mask=c < N, other=0.0).to(tl.float32)
    mu = tl.sum(s, axis=0) / N
    v = tl.zeros((BLOCK,), dtype=tl.float32)
    for o in range(0, N, BLOCK):
        c = o + tl.arange(0, BLOCK)
        d = tl.where(c < N, tl.load(x + c, mask=c < N, other=0.0).to(tl.float32) - mu, 0.0)
        v += d * d
    r = 1 / tl.sqrt(tl.sum(v, axis=0) / N + eps)
    tl.store(mean + row, mu)
    tl.store(rstd + row, r)
    for o in range(0, N, BLOCK):
        c = o + tl.arange(0, BLOCK)
        xh = (tl.load(x + c, mask=c < N, other=0.0).to(tl.float32) - mu) * r
        out = xh * tl.load(w + c, mask=c < N) + tl.load(b + c, mask=c < N)
        tl.store(y + c, out.to(tl.float16), mask=c < N)


@triton.jit  # 05 layer norm, backward: dx per row, dw and db summed per group of rows
def layer_norm_bwd(dy, x, w, mean, rstd, dx, part_dw, part_db, M, N, GROUPS: tl.constexpr, BLOCK: tl.constexpr):
    g = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    m = c < N
    wv = tl.load(w + c, mask=m).to(tl.float32)
    dw = tl.zeros((BLOCK,), dtype=tl.float32)
    db = tl.zeros((BLOCK,), dtype=tl.float32)
    for row in range(g, M, GROUPS):
        xv = tl.load(x + row * N + c, mask=m, other=0).to(tl.float32)
        gv = tl.load(dy + row * N + c, mask=m, other=0).to(tl.float32)
        xh = tl.where(m, (xv - tl.load(mean + row)) * tl.load(rstd + row), 0.0)
        wdy = tl.where(m, wv * gv, 0.0)
        c1 = tl.sum(xh * wdy, axis=0) / N
        c2 = tl.sum(wdy, axis=0) / N
        tl.store(dx + row * N + c, ((wdy - (xh * c1 + c2)) * tl.load(rstd + row)).to(tl.float16), mask=m)
        dw += gv * xh
        db += gv
    tl.store(part_dw + g * N + c, dw, mask=m)
    tl.store(part_db + g * N + c, db, mask=m)


@triton.jit
def layer_norm_bwd_sum(part_dw, part_db, dw, db, N, GROUPS: tl.constexpr, BLOCK: tl.constexpr):
    c = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    g = tl.arange(0, GROUPS)
    at = g[:, None] * N + c[None, :]
    m = c[None, :] < N
    tl.store(dw + c, tl.sum(tl.load(part_dw + at, mask=m, other=0.0), axis=0), mask=c < N)
    tl.store(db + c, tl.sum(tl.load(part_db + at, mask=m, other=0.0), axis=0), mask=c < N)


@triton.jit  # 06 fused attention, forward: online softmax over key blocks, causal
def attention_fwd(q, k, v, o, scale, N_CTX, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    start = tl.program_id(0) * BM
    head = tl.program_id(1) * N_CTX * D
    rm = start + tl.arange(0, BM)
    rd = tl.arange(0, D)
    qt = tl.load(q + head + rm[:, None] * D + rd[None, :])
    m_i = tl.full((BM,), -float("inf"), tl.float32)
    l_i = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for n0 in range(0, start + BM, BN):
        rn = n0 + tl.arange(0, BN)
        kt = tl.load(k + head + rn[None, :] * D + rd[:, None])
        s = tl.dot(qt, kt) * scale
        s = tl.where(rm[:, None] >= rn[None, :], s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), tl.load(v + head + rn[:, None] * D + rd[None, :]))
        m_i = m_new
    tl.store(o + head + rm[:, None] * D + rd[None, :], (acc / l_i[:, None]).to(tl.float16))


@triton.jit  # 07 libdevice functions
def asin_kernel(x, y, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + i, libdevice.asin(tl.load(x + i, mask=i < n)), mask=i < n)


@triton.jit  # 08 grouped GEMM: the group's pointers and sizes in tensors, a fixed grid walks every tile
def grouped_matmul_kernel(a_ptrs, b_ptrs, c_ptrs, sizes, groups, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tile = tl.program_id(0)
    done = 0
    for g in range(groups):
        M = tl.load(sizes + 3 * g)
        N = tl.load(sizes + 3 * g + 1)
        K = tl.load(sizes + 3 * g + 2)
        tiles = tl.cdiv(M, BM) * tl.cdiv(N, BN)
        while tile >= done and tile < done + tiles:
            a = tl.load(a_ptrs + g).to(tl.pointer_type(tl.float16))
            b = tl.load(b_ptrs + g).to(tl.pointer_type(tl.float16))
            c = tl.load(c_ptrs + g).to(tl.pointer_type(tl.float16))
            t = tile - done
            rm = (t // tl.cdiv(N, BN)) * BM + tl.arange(0, BM)
            rn = (t % tl.cdiv(N, BN)) * BN + tl.arange(0, BN)
            rk = tl.arange(0, BK)
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for k in range(0, K, BK):
                acc = tl.dot(tl.load(a + rm[:, None] * K + (k + rk)[None, :]), tl.load(b + (k + rk)[:, None] * N + rn[None, :]), acc)
            tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))
            tile += tl.num_programs(0)
        done += tiles


@triton.jit  # 09 persistent matmul: as many programs as SMs, each walking tiles
def persistent_matmul_kernel(a, b, c, M, N, K, PROGRAMS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tiles_n = tl.cdiv(N, BN)
    for t in tl.range(tl.program_id(0), tl.cdiv(M, BM) * tiles_n, PROGRAMS):
        rm = (t // tiles_n) * BM + tl.arange(0, BM)
        rn = (t % tiles_n) * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            acc = tl.dot(tl.load(a + rm[:, None] * K + (k + rk)[None, :]), tl.load(b + (k + rk)[:, None] * N + rn[None, :]), acc)
        tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


def cases():
    """Each tutorial's launch at the size its correctness check uses (09: 1024 x 1024 x 512, a
    size its benchmark sweeps; its check is 32³)."""
    torch.manual_seed(0)
    out = {}

    x, y = torch.rand(98432), torch.rand(98432)
    z = torch.empty_like(x)
    out["01 vector add 98432"] = lambda: add_kernel[(triton.cdiv(98432, 1024),)](x, y, z, 98432, BLOCK=1024)

    s_in = torch.randn(1823, 781)
    s_out = torch.empty_like(s_in)
    out["02 softmax 1823x781"] = lambda: softmax_kernel[(132,)](s_out, s_in, 1823, 781, BLOCK=1024)

    a, b = torch.randn(512, 512).half(), torch.randn(512, 512).half()
    c = torch.empty(512, 512).half()
    out["03 matmul 512^3 f16"] = lambda: matmul_kernel[(64,)](a, b, c, 512, 512, 512, BM=64, BN=64, BK=32, GROUP=8)
    a8, b8 = a.to(torch.float8_e5m2), b.to(torch.float8_e5m2)  # the tutorial's fp8 check (cuda:90)
    c8 = torch.empty(512, 512).half()
    out["03 matmul 512^3 fp8"] = lambda: matmul_kernel[(64,)](a8, b8, c8, 512, 512, 512, BM=64, BN=64, BK=64, GROUP=8)

    d_in = torch.randn(10)
    d_out = torch.empty_like(d_in)
    out["04 dropout 10"] = lambda: dropout_kernel[(1,)](d_in, d_out, 10, 0.5, 123, BLOCK=1024)

    M, N = 1151, 8192
    lx = (-2.3 + 0.5 * torch.randn(M, N)).half()
    lw, lb = torch.rand(N).half(), torch.rand(N).half()
    ly, ldy = torch.empty(M, N).half(), (0.1 * torch.randn(M, N)).half()
    mean, rstd = torch.empty(M), torch.empty(M)
    ldx = torch.empty(M, N).half()
    part_dw, part_db = torch.empty(64, N), torch.empty(64, N)
    dw, db = torch.empty(N), torch.empty(N)
    out["05 layer norm fwd 1151x8192"] = lambda: layer_norm_fwd[(M,)](lx, ly, lw, lb, mean, rstd, N, 1e-5, BLOCK=1024)

    def backward():
        layer_norm_bwd[(64,)](ldy, lx, lw, mean, rstd, ldx, part_dw, part_db, M, N, GROUPS=64, BLOCK=8192)
        layer_norm_bwd_sum[(triton.cdiv(N, 128),)](part_dw, part_db, dw, db, N, GROUPS=64, BLOCK=128)

    out["05 layer norm bwd 1151x8192"] = backward

    H, CTX, D = 2, 1024, 64
    q, k, v = (torch.randn(H, CTX, D).half() for _ in range(3))
    o = torch.empty_like(q)
    out["06 attention fwd 1x2x1024x64"] = lambda: attention_fwd[(CTX // 64, H)](q, k, v, o, D ** -0.5, CTX, D=D, BM=64, BN=64)

    ax = torch.rand(98432)
    ay = torch.empty_like(ax)
    out["07 libdevice asin 98432"] = lambda: asin_kernel[(triton.cdiv(98432, 1024),)](ax, ay, 98432, BLOCK=1024)

    group = [1024, 512, 256, 128]
    ga = [torch.rand(n, n).half() for n in group]
    gb = [torch.rand(n, n).half() for n in group]
    gc = [torch.empty(n, n).half() for n in group]
    pointers = [torch.tensor([t.data_ptr() for t in ts]) for ts in (ga, gb, gc)]
    sizes = torch.tensor([s for n in group for s in (n, n, n)], dtype=torch.int32)
    # the kernel reaches the tensors only through their addresses: the launch keeps them alive
    out["08 grouped GEMM 1024..128"] = lambda keep=(ga, gb, gc): grouped_matmul_kernel[(132,)](
        *pointers, sizes, len(group), BM=64, BN=64, BK=32)

    pa, pb = torch.randn(1024, 512).half(), torch.randn(512, 1024).half()
    pc = torch.empty(1024, 1024).half()
    out["09 persistent matmul 1024x1024x512"] = lambda: persistent_matmul_kernel[(132,)](
        pa, pb, pc, 1024, 1024, 512, PROGRAMS=132, BM=128, BN=128, BK=64)
    return out
