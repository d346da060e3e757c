"""Layer normalization over f16 rows, forward and backward, the computation of Triton's layer-norm
tutorial (05), for cuda:90: the forward pass walks each row in BLOCK-wide chunks (masked at the
row's end) for the mean, the variance and the output; the backward pass keeps a whole row in
registers for dx and adds each row's dw and db into its program's f32 partial sums, which a last
kernel sums by column. Partial sums are per program, in row order, so the outputs are
deterministic (the tutorial's lock-protected accumulation is not)."""
import triton
import triton.language as tl


@triton.jit
def layer_norm_fwd(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, N, eps, BLOCK: tl.constexpr):
    """Y = (X - mean) * rstd * W + B per row of X (M x N f16); mean and rstd (f32) saved."""
    row = tl.program_id(0)
    x_ptr += row * N
    y_ptr += row * N
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
        d = tl.where(cols < N, x - mean, 0.0)
        acc += d * d
    rstd = 1 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        tl.store(y_ptr + cols, (x - mean) * rstd * w + b, mask=mask)


@triton.jit
def layer_norm_bwd_dx(dx_ptr, dy_ptr, x_ptr, w_ptr, mean_ptr, rstd_ptr, dw_part_ptr, db_part_ptr, M, N,
                      BLOCK_N: tl.constexpr):
    """dX of each row (f16); program p adds rows p, p + P, ... into dW and dB partials (f32, P x N)."""
    pid = tl.program_id(0)
    programs = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK_N], dtype=tl.float32)
    db = tl.zeros([BLOCK_N], dtype=tl.float32)
    for row in range(pid, M, programs):
        x = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        mean = tl.load(mean_ptr + row)
        rstd = tl.load(rstd_ptr + row)
        xhat = tl.where(mask, (x - mean) * rstd, 0.0)
        wdy = tl.where(mask, w * dy, 0.0)
        c1 = tl.sum(xhat * wdy, axis=0) / N
        c2 = tl.sum(wdy, axis=0) / N
        tl.store(dx_ptr + row * N + cols, (wdy - (xhat * c1 + c2)) * rstd, mask=mask)
        dw += dy * xhat
        db += dy
    tl.store(dw_part_ptr + pid * N + cols, dw, mask=mask)
    tl.store(db_part_ptr + pid * N + cols, db, mask=mask)


@triton.jit
def layer_norm_bwd_dwdb(dw_part_ptr, db_part_ptr, dw_ptr, db_ptr, P, N, BLOCK_P: tl.constexpr,
                        BLOCK_N: tl.constexpr):
    """dW and dB (f16) = the column sums of the P x N partials."""
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    dw = tl.zeros([BLOCK_P, BLOCK_N], dtype=tl.float32)
    db = tl.zeros([BLOCK_P, BLOCK_N], dtype=tl.float32)
    for p0 in range(0, P, BLOCK_P):
        rows = p0 + tl.arange(0, BLOCK_P)
        mask = (rows[:, None] < P) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(dw_part_ptr + offs, mask=mask, other=0.0)
        db += tl.load(db_part_ptr + offs, mask=mask, other=0.0)
    tl.store(dw_ptr + cols, tl.sum(dw, axis=0), mask=cols < N)
    tl.store(db_ptr + cols, tl.sum(db, axis=0), mask=cols < N)


CONFIGS = [
    dict(name="layer_norm90_fwd", fn=layer_norm_fwd, arch=90,
         signature={"x_ptr": "*fp16", "y_ptr": "*fp16", "w_ptr": "*fp16", "b_ptr": "*fp16", "mean_ptr": "*fp32",
                    "rstd_ptr": "*fp32", "N": "i32", "eps": "fp32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 1024}, options={"num_warps": 8, "num_stages": 1}),
    dict(name="layer_norm90_bwd_dx", fn=layer_norm_bwd_dx, arch=90,
         signature={"dx_ptr": "*fp16", "dy_ptr": "*fp16", "x_ptr": "*fp16", "w_ptr": "*fp16", "mean_ptr": "*fp32",
                    "rstd_ptr": "*fp32", "dw_part_ptr": "*fp32", "db_part_ptr": "*fp32", "M": "i32", "N": "i32",
                    "BLOCK_N": "constexpr"},
         constexprs={"BLOCK_N": 4096}, options={"num_warps": 8, "num_stages": 1}),
    dict(name="layer_norm90_bwd_dwdb", fn=layer_norm_bwd_dwdb, arch=90,
         signature={"dw_part_ptr": "*fp32", "db_part_ptr": "*fp32", "dw_ptr": "*fp16", "db_ptr": "*fp16", "P": "i32",
                    "N": "i32", "BLOCK_P": "constexpr", "BLOCK_N": "constexpr"},
         constexprs={"BLOCK_P": 32, "BLOCK_N": 128}, options={"num_warps": 4, "num_stages": 1}),
]
