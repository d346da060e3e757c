"""Triton kernels, written as Triton's tutorials write them, launched unmodified on PyTorch CPU
tensors through ptxvm's Triton backend for cuda:80, cuda:90 and cuda:100."""
import pytest

torch = pytest.importorskip("torch")
triton = pytest.importorskip("triton")
import triton.language as tl  # noqa: E402

import ptxvm  # noqa: E402
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


def test_triton_finds_the_backend_from_the_environment_alone():
    import os
    import subprocess
    import sys
    code = ("import torch, triton\n"
            "t = triton.runtime.driver.active.get_current_target()\n"
            "print(t.backend, t.arch, torch.cuda.get_device_capability(), torch.cuda.is_available())")
    env = {**os.environ, "PTXVM_TARGET": "cuda:100"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split("\n")[0] == "cuda 100 (10, 0) False"


CUDA_TENSORS_PROGRAM = """
import torch, triton, triton.language as tl

@triton.jit
def scale(x, out, n, BLOCK: tl.constexpr):
    desc = tl.make_tensor_descriptor(x, shape=[n], strides=[1], block_shape=[BLOCK])  # global scratch
    i = tl.program_id(0) * BLOCK
    desc.store([i], 3 * desc.load([i]))
    tl.store(out + i + tl.arange(0, BLOCK), desc.load([i]))

made = []
def alloc(size, align, stream):
    made.append(torch.empty(size, dtype=torch.int8, device="cuda"))  # as Triton's tutorials write it
    return made[-1]

triton.set_allocator(alloc)
x = torch.arange(256, dtype=torch.float32, device="cuda")
out = torch.zeros(256).cuda()
scale[(2,)](x, out, 256, BLOCK=128)
print(x.device, made[0].device, torch.equal(out, 3 * torch.arange(256.0)), torch.cuda.is_available())
"""


def test_cuda_tensors_are_cpu_tensors_when_asked(tmp_path):
    import os
    import subprocess
    import sys
    program = tmp_path / "program.py"  # Triton reads a kernel's source from its file
    program.write_text(CUDA_TENSORS_PROGRAM)
    env = {**os.environ, "PTXVM_TARGET": "cuda:90", "PTXVM_CUDA_TENSORS": "cpu"}
    run = subprocess.run([sys.executable, str(program)], env=env, capture_output=True, text=True)
    assert run.stdout.split("\n")[0] == "cpu cpu True False", run.stderr


@pytest.mark.skipif(torch.cuda.is_available(), reason="torch sees a GPU: its own answers stay")
def test_torch_cuda_queries_answer_for_the_target():
    for target, capability in (("cuda:80", (8, 0)), ("cuda:90", (9, 0)), ("cuda:100", (10, 0))):
        use(target)
        assert torch.cuda.get_device_capability() == capability
        props = torch.cuda.get_device_properties("cuda")
        assert (props.major, props.minor) == capability and props.multi_processor_count == 132
        assert torch.cuda.get_device_name(0) == f"ptxvm sm_{capability[0]}{capability[1]}"
    assert torch.cuda.current_device() == 0
    torch.cuda.synchronize()
    torch.cuda.set_device(0)
    with torch.cuda.device(torch.zeros(1).device.index):  # a CPU tensor's index: None
        pass
    assert not torch.cuda.is_available()  # tensors stay on the CPU


@pytest.mark.parametrize("target", TARGETS)
def test_compiled_kernels_keep_ptx_text_and_load_the_cubin_stage(target):
    use(target, add_kernel)
    x = torch.rand(100)
    out = torch.empty_like(x)
    compiled = add_kernel[(1,)](x, x, out, 100, BLOCK=128)
    assert isinstance(compiled.asm["ptx"], str) and ".entry add_kernel" in compiled.asm["ptx"]
    assert compiled.asm["cubin"] == compiled.asm["ptx"].encode()  # what ptxvm loads
    assert torch.equal(out, 2 * x)


def test_reinterpreted_tensors_are_arguments():
    use("cuda:90", add_kernel)
    x = torch.tensor([0x7FFFFFFF, 1, 2], dtype=torch.int32)
    out = torch.empty_like(x)
    as_u32 = [triton.reinterpret(t, tl.uint32) for t in (x, x, out)]
    add_kernel[(1,)](*as_u32, 3, BLOCK=4)
    assert out.tolist() == [-2, 2, 4]  # 0x7fffffff + 0x7fffffff = 0xfffffffe as uint32


@triton.jit
def grouped_scale_kernel(ptrs, sizes, out, BLOCK: tl.constexpr):
    # tutorial 08's pattern: the tensors are reached through addresses stored in a tensor
    g = tl.program_id(0)
    src = tl.load(ptrs + g).to(tl.pointer_type(tl.float32))
    n = tl.load(sizes + g)
    offs = tl.arange(0, BLOCK)
    tl.store(out + g * BLOCK + offs, 2 * tl.load(src + offs, mask=offs < n, other=0.0), mask=offs < n)


@pytest.mark.parametrize("target", TARGETS)
def test_tensors_reached_through_stored_pointers_are_adopted(target):
    use(target, grouped_scale_kernel)
    group = [torch.rand(n) for n in (64, 17, 128)]
    ptrs = torch.tensor([t.data_ptr() for t in group], dtype=torch.int64)
    sizes = torch.tensor([t.numel() for t in group], dtype=torch.int32)
    out = torch.zeros(3, 128)
    grouped_scale_kernel[(3,)](ptrs, sizes, out, BLOCK=128)
    for g, t in enumerate(group):
        assert torch.equal(out[g, :t.numel()], 2 * t)
    ptrs[1] = 0x10000  # no tensor lives there: the launch faults
    with pytest.raises(ptxvm.GuestFault, match="out-of-bounds"):
        grouped_scale_kernel[(3,)](ptrs, sizes, out, BLOCK=128)


@triton.jit
def desc_matmul_kernel(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc = tl.dot(a_desc.load([pid_m * BM, k * BK]), b_desc.load([k * BK, pid_n * BN]), acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


@triton.jit
def device_desc_matmul_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc = tl.dot(a_desc.load([pid_m * BM, k * BK]), b_desc.load([k * BK, pid_n * BN]), acc)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    tl.store(c + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def dot_scaled_kernel(a, sa, b, sb, c, K: tl.constexpr, M: tl.constexpr, N: tl.constexpr):
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    rs = tl.arange(0, K // 32)
    acc = tl.dot_scaled(tl.load(a + rm[:, None] * K + rk[None, :]), tl.load(sa + rm[:, None] * (K // 32) + rs[None, :]),
                        "e4m3", tl.load(b + rk[:, None] * N + rn[None, :]),
                        tl.load(sb + rn[:, None] * (K // 32) + rs[None, :]), "e4m3")
    tl.store(c + rm[:, None] * N + rn[None, :], acc)


def small_ints(*shape):
    return torch.randint(-3, 4, shape).to(torch.float16)


def im2col_reference(inp, lower, upper, coord, offsets, pixels, channels):
    """The pixels an im2col load gathers (PTX §5.5.4): from `coord`, W fastest through the bounding
    box [lower, (H-1, W-1) + upper] of each image, each read `offsets` away (zeros outside)."""
    _, H, W, _ = inp.shape
    out = torch.zeros(pixels, channels, dtype=inp.dtype)
    n, h, w, c = coord
    for p in range(pixels):
        y, x = h + offsets[0], w + offsets[1]
        if 0 <= y < H and 0 <= x < W:
            out[p] = inp[n, y, x, c:c + channels]
        w += 1
        if w > W - 1 + upper[1]:
            w, h = lower[1], h + 1
            if h > H - 1 + upper[0]:
                h, n = lower[0], n + 1
    return out


@pytest.mark.parametrize("target", ["cuda:90", "cuda:100"])
def test_gluon_im2col_tensor_descriptors(target):
    from triton.experimental import gluon
    from triton.experimental.gluon import language as gl
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor, TensorDescriptorIm2Col
    from triton.experimental.gluon.language.nvidia.hopper import mbarrier, tma

    @gluon.jit
    def im2col_kernel(src, dst, n: int, h: int, w: int, c: int, off_h: gl.constexpr, off_w: gl.constexpr):
        smem = gl.allocate_shared_memory(src.dtype, src.block_shape, src.layout)
        bar = mbarrier.allocate_mbarrier()
        mbarrier.init(bar, count=1)
        mbarrier.expect(bar, src.block_type.nbytes)
        tma.async_load_im2col(src, [n, h, w, c], [off_h, off_w], bar, smem)
        mbarrier.wait(bar, phase=0)
        mbarrier.invalidate(bar)
        tma.async_store(dst, [0, 0], smem)
        tma.store_wait(pendings=0)

    use(target, im2col_kernel)
    inp = torch.arange(2 * 4 * 5 * 64, dtype=torch.float32).reshape(2, 4, 5, 64)  # NHWC
    layout = gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=32, rank=2)
    # a box one row above the image and one column short of it; the load starts above the image,
    # reads one row further down, and runs into the second image
    lower, upper, coord, offsets = [-1, 0], [0, -1], [0, -1, 0, 32], (1, 0)
    src = TensorDescriptorIm2Col.from_tensor(inp, [32, 32], layout, padding="zero", element_strides=[1, 1, 1, 1],
                                             pixel_box_lower_corner=lower, pixel_box_upper_corner=upper)
    out = torch.full((32, 32), -1.0)
    im2col_kernel[(1,)](src, TensorDescriptor.from_tensor(out, [32, 32], layout), *coord, *offsets, num_warps=1)
    assert torch.equal(out, im2col_reference(inp, lower, upper, coord, offsets, 32, 32))


@pytest.mark.parametrize("target", ["cuda:90", "cuda:100"])
def test_host_tensor_descriptors_become_tensor_maps(target):
    from triton.tools.tensor_descriptor import TensorDescriptor
    use(target, desc_matmul_kernel)
    M, N, K = 256, 128, 96
    a, b = small_ints(M, K), small_ints(K, N)
    c = torch.empty(M, N, dtype=torch.float16)
    desc_matmul_kernel[(M // 128, N // 64)](TensorDescriptor.from_tensor(a, [128, 32]),
                                            TensorDescriptor.from_tensor(b, [32, 64]),
                                            TensorDescriptor.from_tensor(c, [128, 64]), K, BM=128, BN=64, BK=32)
    assert torch.equal(c, (a.float() @ b.float()).half())


@pytest.mark.parametrize("target", ["cuda:90", "cuda:100"])
def test_device_tensor_descriptors_use_global_scratch(target):
    use(target, device_desc_matmul_kernel)
    M, N, K = 128, 128, 64
    a, b = small_ints(M, K), small_ints(K, N)
    c = torch.empty(M, N, dtype=torch.float32)
    device_desc_matmul_kernel[(1, 2)](a, b, c, M, N, K, BM=128, BN=64, BK=32)
    assert torch.equal(c, a.float() @ b.float())


def test_dot_scaled_on_blackwell():
    use("cuda:100", dot_scaled_kernel)
    M, N, K = 128, 128, 64
    a, b = small_ints(M, K), small_ints(K, N)
    sa = torch.randint(125, 130, (M, K // 32), dtype=torch.uint8)  # e8m0: 2^-2 .. 2^2
    sb = torch.randint(125, 130, (N, K // 32), dtype=torch.uint8)
    c = torch.empty(M, N, dtype=torch.float32)
    dot_scaled_kernel[(1,)](a.to(torch.float8_e4m3fn), sa, b.to(torch.float8_e4m3fn), sb, c, K=K, M=M, N=N)
    scale_a = torch.pow(2.0, sa.float() - 127).repeat_interleave(32, dim=1)  # M x K
    scale_b = torch.pow(2.0, sb.float() - 127).repeat_interleave(32, dim=1)  # N x K
    want = (a.float() * scale_a) @ (b.float() * scale_b.T)
    assert torch.equal(c, want)


def test_scratch_comes_from_the_allocator_the_program_sets():
    use("cuda:90", device_desc_matmul_kernel)
    asked = []

    def allocator(size, alignment, stream):
        asked.append((size, alignment))
        return torch.empty(size, dtype=torch.int8)

    triton.set_allocator(allocator)
    try:
        M, N, K = 128, 128, 64
        a, b = small_ints(M, K), small_ints(K, N)
        c = torch.empty(M, N, dtype=torch.float32)
        device_desc_matmul_kernel[(1, 2)](a, b, c, M, N, K, BM=128, BN=64, BK=32)
        assert torch.equal(c, a.float() @ b.float())
        assert asked and asked[0][0] > 0  # two programs' tensor maps
    finally:
        triton.set_allocator(triton.runtime._allocation.NullAllocator())


def test_the_cuda_driver_steps_aside_where_torch_sees_a_gpu(monkeypatch):
    from triton.backends.nvidia.driver import CudaDriver
    use("cuda:90")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.version, "hip", None)
    assert CudaDriver.is_active() is False
    active = [b.driver for b in triton.backends.backends.values() if b.driver.is_active()]
    assert [d.__name__ for d in active] == ["PtxvmDriver"]


def _scale_tiles(scales):
    """(rows, blocks) block scales laid out as cuBLAS takes them: 128 x 4 tiles of 512 bytes, scale
    (32 i + j, c) of a tile at byte 16 j + 4 i + c (written out element by element)."""
    rows, blocks = scales.shape
    out = torch.zeros(rows * blocks, dtype=scales.dtype)
    for r in range(rows):
        for b in range(blocks):
            tile = (r // 128) * (blocks // 4) + b // 4
            out[tile * 512 + 16 * (r % 32) + 4 * ((r % 128) // 32) + b % 4] = scales[r, b]
    return out


@pytest.mark.skipif(torch.cuda.is_available(), reason="torch sees a GPU: Triton's own cuBLAS binding stays")
def test_cublas_binding_answers_on_the_cpu():
    use("cuda:100")
    from triton._C.libtriton import nvidia
    blas = nvidia.cublas.CublasLt(torch.empty(1024, dtype=torch.uint8))
    g = torch.Generator().manual_seed(5)
    a = torch.randint(-3, 4, (48, 64), generator=g).float()
    b = torch.randint(-3, 4, (40, 64), generator=g).float()
    c = torch.empty(48, 40, dtype=torch.float16)
    blas.matmul(a.half(), b.half(), c)  # C = A Bᵀ, exact on small integers
    assert torch.equal(c.float(), a @ b.T)
    d = torch.empty(48, 40, dtype=torch.float16)
    blas.gemm(a.half(), b.half(), c, d, 2.0, -1.0)
    assert torch.equal(d.float(), a @ b.T)

    m, n, k = 128, 128, 256
    # mxfp8: e4m3 operands, one e8m0 scale (2^(s - 127)) per 32 of K; the data keep every sum exact
    # in float32, so the reference (float64) rounds once, to the fp16 output, as the GEMM must
    a8, b8 = (torch.randint(-4, 5, (rows, k), generator=g).double() for rows in (m, n))
    sa, sb = (torch.randint(125, 130, (rows, k // 32), generator=g).to(torch.uint8) for rows in (m, n))
    out = torch.empty(m, n, dtype=torch.float16)
    blas.block_scaled_matmul_mxfp8(a8.to(torch.float8_e4m3fn), b8.to(torch.float8_e4m3fn), out,
                                   _scale_tiles(sa), _scale_tiles(sb))
    ref = (a8 * torch.exp2(sa.double() - 127).repeat_interleave(32, 1)) @ (b8 * torch.exp2(sb.double() - 127).repeat_interleave(32, 1)).T
    assert torch.equal(out, ref.half())

    # nvfp4: e2m1 operands two per byte (low nibble first), one e4m3 scale per 16 of K
    e2m1 = [0, 0.5, 1, 1.5, 2, 3, 4, 6]
    codes_a, codes_b = (torch.randint(0, 16, (rows, k), generator=g) for rows in (m, n))
    value = lambda codes: torch.tensor([[(-1) ** (x >> 3) * e2m1[x & 7] for x in row] for row in codes.tolist()], dtype=torch.float64)
    pack = lambda codes: (codes[:, 0::2] | codes[:, 1::2] << 4).to(torch.uint8)
    ta, tb = (torch.tensor([0.5, 1, 2, 0.25], dtype=torch.float64)[torch.randint(0, 4, (rows, k // 16), generator=g)] for rows in (m, n))
    out = torch.empty(m, n, dtype=torch.float16)
    blas.block_scaled_matmul_nvfp4(pack(codes_a), pack(codes_b), out, _scale_tiles(ta.to(torch.float8_e4m3fn)),
                                   _scale_tiles(tb.to(torch.float8_e4m3fn)))
    ref = (value(codes_a) * ta.repeat_interleave(16, 1)) @ (value(codes_b) * tb.repeat_interleave(16, 1)).T
    assert torch.equal(out, ref.half())
