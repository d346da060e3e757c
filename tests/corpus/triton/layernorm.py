"""LayerNorm forward with a loop over column blocks, storing mean and rstd."""
import triton
import triton.language as tl


@triton.jit
def layernorm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    var_acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.0)
        var_acc += x * x
    rstd = 1 / tl.sqrt(tl.sum(var_acc, axis=0) / N + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        m = cols < N
        w = tl.load(W + cols, mask=m)
        b = tl.load(B + cols, mask=m)
        x = tl.load(X + cols, mask=m, other=0.0).to(tl.float32)
        tl.store(Y + cols, ((x - mean) * rstd * w + b).to(tl.bfloat16), mask=m)


CONFIGS = [
    dict(name="layernorm", fn=layernorm_fwd,
         signature={"X": "*bf16", "Y": "*bf16", "W": "*fp32", "B": "*fp32", "Mean": "*fp32", "Rstd": "*fp32",
                    "stride": "i32", "N": "i32", "eps": "fp32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 512}, options={"num_warps": 4}),
]
