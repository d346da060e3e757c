"""PyTorch's "cuda" device made the CPU, for programs that name it outright (opt-in).

Triton's tutorials and test helpers make some tensors with ``device="cuda"`` (scratch allocators,
workspaces) rather than on Triton's active torch device. With ``PTXVM_CUDA_TENSORS=cpu`` in the
environment (or ``activate(..., cuda_tensors_on_cpu=True)``) such tensors are made on the CPU, where
ptxvm's launches use them in place: a torch function mode rewrites the device of factory functions
(``torch.empty(..., device="cuda")``), of ``Tensor.to("cuda")`` and of ``Tensor.cuda()``. The tensors
are CPU tensors (``is_cuda`` is False) and ``torch.cuda.is_available()`` stays False. The mode
applies to the thread that turns it on.
"""
from __future__ import annotations

from typing import Any

_mode: Any = None


def _is_cuda(device: Any) -> bool:
    import torch
    if isinstance(device, str):
        return device == "cuda" or device.startswith("cuda:")
    return isinstance(device, torch.device) and device.type == "cuda"


def _on_cpu(args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """The arguments with every cuda device, positional or `device=`, made the CPU."""
    args = tuple("cpu" if _is_cuda(a) else a for a in args)
    if _is_cuda(kwargs.get("device")):
        kwargs = {**kwargs, "device": "cpu"}
    return args, kwargs


def enable() -> None:
    """Makes the cuda device the CPU for this thread's torch calls from now on (once)."""
    global _mode
    if _mode is not None:
        return
    import torch
    from torch.overrides import TorchFunctionMode

    class CudaOnCpu(TorchFunctionMode):

        def __torch_function__(self, func, types, args=(), kwargs=None):
            if func is torch.Tensor.cuda:
                return args[0]
            args, kwargs = _on_cpu(tuple(args), kwargs or {})
            return func(*args, **kwargs)

    _mode = CudaOnCpu()
    _mode.__enter__()
