"""Triton's cuBLAS binding answered on the CPU, where there is no GPU for cuBLAS to run on.

Triton's tutorials and tests check their kernels against cuBLAS through
``triton._C.libtriton.nvidia.cublas.CublasLt`` (tutorials 09 and 10, ``test_blaslt``,
``test_block_scaled_matmul_*``). That binding loads NVIDIA's libcublasLt, whose kernels are machine
code ptxvm cannot run, and without a GPU it fails. While ptxvm is Triton's driver and PyTorch sees
no GPU, ``CublasLt`` is this class instead: the same methods, computed with PyTorch on the CPU
from the exact products, accumulated in float32 and rounded once to the output type. Its bits are
those of a float32 GEMM, not cuBLAS's (whose algorithm choice sets its own rounding), which the
tolerances of the checks above allow.
"""
from __future__ import annotations

from typing import Any

import torch

# e2m1 (fp4) code -> value; bit 3 is the sign (OCP Microscaling Formats v1.0, §5.3.3)
_E2M1 = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0)


def _unpack_scales(flat: Any, rows: int, blocks: int) -> torch.Tensor:
    """Block scales in the layout cuBLAS (and tcgen05) take them, as float32 (rows, blocks): 128 x 4
    tiles of 512 bytes, in which scale (32 i + j, c) of the tile sits at byte 16 j + 4 i + c."""
    tiles = flat.reshape(-1, blocks // 4, 32, 4, 4).to(torch.float32)
    return tiles.permute(0, 3, 2, 1, 4).reshape(-1, blocks)[:rows]


def _e8m0(biased: torch.Tensor) -> torch.Tensor:
    """e8m0 scales (their bytes, as float32 numbers) as the powers of two they stand for."""
    return torch.exp2(biased - 127)


def _fp4(packed: Any) -> torch.Tensor:
    """A (rows, k/2) uint8 tensor of e2m1 pairs, the low nibble first, as float32 (rows, k)."""
    table = torch.tensor(_E2M1)
    return torch.stack((table[(packed & 15).long()], table[(packed >> 4).long()]), dim=-1).reshape(packed.shape[0], -1)


class CublasLt:
    """``triton._C.libtriton.nvidia.cublas.CublasLt`` on the CPU. Every product is row-major C = A
    Bᵀ: A is (M, K), B is (N, K), as the binding takes them."""

    def __init__(self, workspace: Any) -> None:
        self.workspace = workspace

    def matmul(self, a: Any, b: Any, c: Any) -> None:
        c.copy_((a.to(torch.float32) @ b.to(torch.float32).T).to(c.dtype))

    def gemm(self, a: Any, b: Any, c: Any, d: Any, alpha: float, beta: float) -> None:
        d.copy_((alpha * (a.to(torch.float32) @ b.to(torch.float32).T) + beta * c.to(torch.float32)).to(d.dtype))

    def block_scaled_matmul_mxfp8(self, a: Any, b: Any, out: Any, a_scale: Any, b_scale: Any) -> None:
        """e4m3 A and B, one e8m0 scale per 32 elements of K."""
        k = a.shape[1]
        sa = _e8m0(_unpack_scales(a_scale.view(torch.uint8), a.shape[0], k // 32)).repeat_interleave(32, dim=1)
        sb = _e8m0(_unpack_scales(b_scale.view(torch.uint8), b.shape[0], k // 32)).repeat_interleave(32, dim=1)
        out.copy_(((a.to(torch.float32) * sa) @ (b.to(torch.float32) * sb).T).to(out.dtype))

    def block_scaled_matmul_nvfp4(self, a: Any, b: Any, out: Any, a_scale: Any, b_scale: Any) -> None:
        """e2m1 A and B packed two per byte, one e4m3 scale per 16 elements of K."""
        fa, fb = _fp4(a), _fp4(b)
        k = fa.shape[1]
        sa = _unpack_scales(a_scale.view(torch.float8_e4m3fn), fa.shape[0], k // 16).repeat_interleave(16, dim=1)
        sb = _unpack_scales(b_scale.view(torch.float8_e4m3fn), fb.shape[0], k // 16).repeat_interleave(16, dim=1)
        out.copy_(((fa * sa) @ (fb * sb).T).to(out.dtype))


def install() -> None:
    """Puts CublasLt in place of Triton's binding where PyTorch sees no GPU."""
    if torch.cuda.is_available():
        return
    from triton._C.libtriton import nvidia
    nvidia.cublas.CublasLt = CublasLt
