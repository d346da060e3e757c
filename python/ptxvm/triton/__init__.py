"""A Triton backend that runs Triton's kernels on ptxvm.

Triton compiles a kernel with its own NVIDIA compiler for the target you choose, and this backend
launches the PTX on ptxvm (no GPU, no ptxas run on the cubin path): `kernel[grid](...)` on
PyTorch CPU tensors runs unmodified. Turn it on with the environment variable

    PTXVM_TARGET=cuda:90    (cuda:80, cuda:89, cuda:90 or cuda:100)

before Triton loads, or call ``ptxvm.triton.activate("cuda:90")``. The target's backend name stays
"cuda", so kernels' ``is_cuda()`` and capability branches behave as on that GPU. The route: a
launcher over the ptxvm package (not Triton's own launcher over a drop-in libcuda), since it needs
no driver re-implementation and passes tensors and scalars with their PTX parameter types.

Tensors are used in place: each launch adopts the storages its tensor arguments live in as
device memory (one range per storage, so views and aliasing arguments keep their offsets).
"""
from __future__ import annotations

import os

_activated: str | None = None


def _target_string() -> str | None:
    return _activated or os.environ.get("PTXVM_TARGET")


def active() -> bool:
    """Whether ptxvm is Triton's driver (PTXVM_TARGET set, or activate() called)."""
    return _target_string() is not None


def capability() -> int:
    """The target's compute capability as Triton writes it (90 for cuda:90)."""
    text = _target_string() or "cuda:90"
    backend, _, arch = text.partition(":")
    if backend != "cuda" or not arch.isdigit() or int(arch) not in (80, 86, 89, 90, 100, 120):
        raise ValueError(f"PTXVM_TARGET is cuda:80, cuda:86, cuda:89, cuda:90, cuda:100 or cuda:120, not {text!r}")
    return int(arch)


def activate(target: str = "cuda:90", cuda_tensors_on_cpu: bool = False) -> None:
    """Makes ptxvm Triton's active driver for `target` ("cuda:90", ...); with
    `cuda_tensors_on_cpu`, tensors made with device="cuda" are made on the CPU (as
    PTXVM_CUDA_TENSORS=cpu does; see cuda_tensors)."""
    global _activated
    _activated = target
    capability()
    if cuda_tensors_on_cpu:
        from . import cuda_tensors
        cuda_tensors.enable()
    import triton.backends
    from triton.runtime import driver
    from .compiler import PtxvmBackend
    from .driver import PtxvmDriver
    # registered as the `triton.backends` entry point says, for a package used without installing
    triton.backends.backends["ptxvm"] = triton.backends.Backend(compiler=PtxvmBackend, driver=PtxvmDriver)
    driver.set_active(PtxvmDriver())
