"""Triton for trace.sh: one kernel, compiled and launched (PyTorch allocates)."""
try:
    import torch
    import triton
    import triton.language as tl
except ImportError as e:
    print("skip:", e)
    raise SystemExit(77)


@triton.jit
def add(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)


n = 1 << 16
x = torch.rand(n, device="cuda")
y = torch.rand(n, device="cuda")
out = torch.empty_like(x)
add[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
torch.cuda.synchronize()
assert torch.allclose(out, x + y)
print("ok")
