"""PyTorch for trace.sh: a tensor add on the GPU."""
try:
    import torch
except ImportError as e:
    print("skip:", e)
    raise SystemExit(77)

x = torch.ones(1 << 16, device="cuda")
y = x + x
torch.cuda.synchronize()
assert y.sum().item() == 2 * (1 << 16)
print("ok")
