"""torch.cuda's device queries answered for the GPU ptxvm emulates.

Triton's testing helpers (`triton._internal_testing.is_hopper()`, ...), its test suite and its
tutorials ask PyTorch which GPU they run on: `torch.cuda.get_device_capability()`,
`get_device_name()`, `get_device_properties()`, `current_device()`, `synchronize()`, and select
a device (`set_device()`, `with torch.cuda.device(i):`). Where PyTorch sees no GPU these raise, so
while ptxvm is Triton's driver they answer for the target instead (cuda:90 -> (9, 0)) and
selecting a device selects the one there is. Only these: `torch.cuda.is_available()` stays False
and tensors stay on the CPU. Where PyTorch sees a GPU nothing is replaced.
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from . import capability

# What the target GPU reports (cudaDeviceProp), for the fields torch's properties carry.
_SHARED_OPTIN = {80: 166912, 86: 101376, 89: 101376, 90: 232448, 100: 232448, 120: 101376}
_SHARED_PER_SM = {80: 167936, 86: 102400, 89: 102400, 90: 233472, 100: 233472, 120: 102400}
_THREADS_PER_SM = {80: 2048, 86: 1536, 89: 1536, 90: 2048, 100: 2048, 120: 1536}
MULTIPROCESSORS = 132  # an H100 SXM's, reported for every target


def max_shared_optin() -> int:
    """Shared memory a block may opt in to on the target (cudaDevAttrMaxSharedMemoryPerBlockOptin)."""
    return _SHARED_OPTIN[capability()]


def get_device_capability(device: Any = None) -> tuple[int, int]:
    return divmod(capability(), 10)


def get_device_name(device: Any = None) -> str:
    return f"ptxvm sm_{capability()}"


def get_device_properties(device: Any = None) -> SimpleNamespace:
    cc = capability()
    major, minor = divmod(cc, 10)
    return SimpleNamespace(name=get_device_name(), major=major, minor=minor, total_memory=80 << 30,
                           multi_processor_count=MULTIPROCESSORS, warp_size=32, max_threads_per_multi_processor=_THREADS_PER_SM[cc],
                           regs_per_multiprocessor=65536, shared_memory_per_block=49152,
                           shared_memory_per_block_optin=_SHARED_OPTIN[cc],
                           shared_memory_per_multiprocessor=_SHARED_PER_SM[cc], L2_cache_size=50 << 20,
                           is_integrated=False, is_multi_gpu_board=False)


def current_device() -> int:
    return 0


def synchronize(device: Any = None) -> None:
    """Launches on ptxvm finish before they return."""


def set_device(device: Any) -> None:
    """There is one device."""


class device:
    """`with torch.cuda.device(i):` selects the one device there is."""

    def __init__(self, device: Any):
        self.idx = 0

    def __enter__(self) -> "device":
        return self

    def __exit__(self, *exc: Any) -> bool:
        return False


_QUERIES = (get_device_capability, get_device_name, get_device_properties, current_device, synchronize, set_device,
            device)
_installed = False


def have_torch() -> bool:
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


def install() -> None:
    """Answers torch.cuda's queries for the target, where torch sees no GPU (once; no-op without torch)."""
    global _installed
    if _installed or not have_torch():
        return
    import torch
    _installed = True
    if torch.cuda.is_available():
        return
    for query in _QUERIES:
        setattr(torch.cuda, query.__name__, query)
