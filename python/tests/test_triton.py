"""Triton kernels, written as Triton's tutorials write them, launched unmodified on PyTorch CPU
tensors through ptxvm's Triton backend for cuda:80, cuda:90 and cuda:100."""
import pytest

torch = pytest.importorskip("torch")
triton = pytest.importorskip("triton")
import triton.language as tl  # noqa: E402

import ptxvm.triton  # noqa: E402

TARGETS = ["cuda:80", "cuda:90", "cuda:100"]


def use(target, *kernels):
    ptxvm.triton.activate(target)
    for k in kernels:  # the JIT caches a binder (and so a target) per device
        k.device_caches.clear()


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * in_stride + offs, mask=offs < n_cols, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(out_ptr + row * out_stride + offs, num / tl.sum(num, axis=0), mask=offs < n_cols)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptr + rm[:, None] * sam + (k * BK + rk)[None, :] * sak,
                    mask=(rm[:, None] < M) & ((k * BK + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k * BK + rk)[:, None] * sbk + rn[None, :] * sbn,
                    mask=((k * BK + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@pytest.mark.parametrize("target", TARGETS)
def test_vector_add(target):
    use(target, add_kernel)
    x, y = torch.rand(3000), torch.rand(3000)
    out = torch.empty_like(x)
    add_kernel[(triton.cdiv(3000, 1024),)](x, y, out, 3000, BLOCK=1024)
    assert torch.equal(out, x + y)


@pytest.mark.parametrize("target", TARGETS)
def test_softmax_on_views(target):
    use(target, softmax_kernel)
    x = torch.randn(64, 100)
    out = torch.empty(64, 128)[:, :100]  # a strided view: its storage goes to ptxvm whole
    softmax_kernel[(64,)](out, x, x.stride(0), out.stride(0), 100, BLOCK=128)
    torch.testing.assert_close(out, torch.softmax(x, dim=1), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("target", TARGETS)
def test_matmul_is_exact_on_small_integers(target):
    use(target, matmul_kernel)
    M, N, K = 192, 160, 96
    a = torch.randint(-3, 4, (M, K)).to(torch.float16)
    b = torch.randint(-3, 4, (K, N)).to(torch.float16)
    c = torch.empty(M, N, dtype=torch.float32)
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                        BM=64, BN=64, BK=32)
    assert torch.equal(c, a.float() @ b.float())


def test_the_driver_reports_the_target():
    use("cuda:90")
    target = triton.runtime.driver.active.get_current_target()
    assert (target.backend, target.arch) == ("cuda", 90)
    assert triton.runtime.driver.active.get_active_torch_device() == torch.device("cpu")
