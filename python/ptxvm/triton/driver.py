"""Triton's driver for ptxvm: the target, the "device", loading PTX, and the launcher."""
from __future__ import annotations

import gc
import os
import struct
import threading
import time
from typing import Any

from triton.backends.compiler import GPUTarget
from triton.backends.driver import DriverBase, expand_signature, wrap_handle_tensordesc_impl
import triton.backends.nvidia.driver as _nvidia

import ptxvm

from . import active, capability, cuda_tensors, torch_cuda

# Triton takes exactly one active driver: while ptxvm is active, Triton's own CUDA driver steps
# aside (it is active wherever torch sees a GPU).
_nvidia_is_active = _nvidia.CudaDriver.is_active
_nvidia.CudaDriver.is_active = staticmethod(lambda: not active() and _nvidia_is_active())

_device: ptxvm.Device | None = None
_launching: "_Storages | None" = None  # the storages of the launch running now
_resolving = threading.Lock()


def _answer_for_the_target() -> None:
    """torch.cuda's queries answer for the target, and Triton's cuBLAS binding on the CPU; with
    PTXVM_CUDA_TENSORS=cpu, "cuda" tensors are made on the CPU."""
    torch_cuda.install()
    if torch_cuda.have_torch():
        from . import cublas
        cublas.install()
    if os.environ.get("PTXVM_CUDA_TENSORS") == "cpu":
        cuda_tensors.enable()


# Triton imports this module when it discovers its backends, before a program's first query.
if active():
    _answer_for_the_target()


def device() -> ptxvm.Device:
    """The ptxvm device Triton's kernels load and run on."""
    global _device
    if _device is None:
        _device = ptxvm.Device()
        _device.set_host_memory_resolver(_resolve)
    return _device


def _resolve(address: int) -> bool:
    """A tensor the kernel reaches through a pointer it read (tutorial 08's arrays of tensor
    addresses), not as an argument: the live PyTorch CPU tensor whose storage holds `address`,
    adopted at its own address for the rest of the launch."""
    storages = _launching
    if storages is None:
        return False
    import torch
    with _resolving:  # the launch's host threads may miss together, and this code yields the GIL
        for obj in gc.get_objects():
            # type(), not isinstance(): that reads __class__, which some module proxies warn about
            if issubclass(type(obj), torch.Tensor) and obj.device.type == "cpu":
                try:
                    storage = obj.untyped_storage()
                except (RuntimeError, NotImplementedError):  # sparse and other storage-less layouts
                    continue
                base = storage.data_ptr()
                if base <= address < base + storage.nbytes():
                    return storages.adopt(storage) == base
    return False


class _Utils:

    # ptxvm allocates no registers: it reports a nominal count, so that occupancy heuristics
    # (registers per SM / (registers x threads)) have a number to divide by.
    NOMINAL_REGISTERS = 32

    def load_binary(self, name: str, kernel: bytes, shared: int, device_index: int):
        text = kernel.decode() if isinstance(kernel, (bytes, bytearray)) else kernel
        module = ptxvm.Module(text, device=device(), name=name + ".ptx")
        return module, module.kernel(name), self.NOMINAL_REGISTERS, 0, 1024

    def unload_module(self, module: Any) -> None:
        pass

    def get_device_properties(self, device_index: int) -> dict:
        return {"max_shared_mem": torch_cuda.max_shared_optin(), "max_num_regs": 65536,
                "multiprocessor_count": torch_cuda.MULTIPROCESSORS,
                "warpSize": 32, "sm_clock_rate": 1980000, "mem_clock_rate": 2619000, "mem_bus_width": 5120}

    def set_printf_fifo_size(self, size: int) -> None:
        pass


class _Event:

    def __init__(self, enable_timing: bool = True):
        self.t = 0.0

    def record(self, stream: Any = None) -> None:
        self.t = time.perf_counter()

    def elapsed_time(self, end: "_Event") -> float:
        return (end.t - self.t) * 1000.0

    def synchronize(self) -> None:
        pass


class _DeviceInterface:
    """What triton.testing asks of torch.cuda: launches finish when they return."""
    Event = _Event

    @staticmethod
    def synchronize(device: Any = None) -> None:
        pass

    @staticmethod
    def current_device() -> int:
        return 0


class _TensorMap:
    """A descriptor's tensor map, encoded at launch once its tensor has a device address."""

    def __init__(self, base: Any, fields: dict):
        self.base, self.fields = base, fields


def _tensordesc_arg(desc: Any, meta: dict | None, _: Any) -> list:
    """A TensorDescriptor argument as the kernel takes it: with TMA, the map (as Triton's NVIDIA
    driver fills it: cuTensorMapEncodeTiled, or cuTensorMapEncodeIm2col for Gluon's
    TensorDescriptorIm2Col, with dims reversed, strides in bytes, no interleave, L2 promotion 128B,
    NaN fill for padding="nan"), then shape and strides; else decomposed."""
    if meta is None:
        from triton.backends.driver import decompose_descriptor
        return decompose_descriptor(desc)
    shape, strides, elem = list(desc.shape), list(desc.strides), meta["elem_size"]
    if meta["fp4_padded"]:
        shape[-1] *= 2
    elem_type = 11 if desc.round_f32_to_tf32 else meta["elem_type"]
    host_type = {8: 10, 9: 8, 10: 9}.get(elem_type, elem_type)  # Triton's device numbering to CUDA's
    rank = len(shape)
    fields = dict(type=host_type, dims=shape[::-1], strides=[elem * s for s in strides[:-1]][::-1],
                  box=list(meta["block_size"])[::-1], element_strides=[1] * rank, interleave=0,
                  swizzle=meta["swizzle"], l2=2, oob=1 if desc.padding == "nan" else 0)
    if meta.get("is_im2col", False):
        # the block is [pixels per column, channels per pixel]; the box's corners are per spatial dim
        pixels, channels = meta["block_size"]
        fields.update(box=[0] * rank, element_strides=list(desc.element_strides or [1] * rank)[::-1],
                      lower=list(desc.pixel_box_lower_corner)[::-1], upper=list(desc.pixel_box_upper_corner)[::-1],
                      channels=channels, pixels=pixels)
    return [_TensorMap(desc.base, fields), *desc.shape, *desc.strides]


def _flatten(types: Any, values: Any, out: list) -> None:
    """(type, value) pairs of nested tuples of parameters, in order."""
    if isinstance(types, tuple):
        for t, v in zip(types, values):
            _flatten(t, v, out)
    else:
        out.append((types, values))


class _Storages:
    """The device memory of a launch's tensors: each storage adopted in place for the launch (no
    copies; one range per storage, so views and aliasing arguments keep their offsets)."""

    def __init__(self) -> None:
        self.ranges: dict[int, ptxvm.DeviceArray] = {}

    def address(self, tensor: Any) -> int:
        # a TensorWrapper (triton.reinterpret) has its tensor as `base`
        storage = (tensor if hasattr(tensor, "untyped_storage") else tensor.base).untyped_storage()
        return self.adopt(storage) + (tensor.data_ptr() - storage.data_ptr())

    def adopt(self, storage: Any) -> int:
        """The device address of a storage's first byte, adopting it at its first use."""
        base = storage.data_ptr()
        if base not in self.ranges:
            import torch
            view = torch.empty(0, dtype=torch.uint8).set_(storage).numpy()  # the storage's bytes
            self.ranges[base] = device().adopt(view)
        return self.ranges[base].address

    def free(self) -> None:
        for darray in self.ranges.values():
            darray.free()


def _allocators() -> tuple:
    """The global and profile scratch allocators the program set, None where it set none."""
    from triton.runtime import _allocation
    chosen = (_allocation._allocator.get(), _allocation._profile_allocator.get())
    return tuple(None if isinstance(a, _allocation.NullAllocator) else a for a in chosen)


class _Launcher:

    def __init__(self, src: Any, metadata: Any):
        self.signature = dict(src.signature)
        self.num_ctas = getattr(metadata, "num_ctas", 1)
        self.global_scratch = (metadata.global_scratch_size, metadata.global_scratch_align)
        self.profile_scratch = (metadata.profile_scratch_size, metadata.profile_scratch_align)
        self.cooperative = bool(getattr(metadata, "launch_cooperative_grid", False))
        tensordesc_meta = getattr(metadata, "tensordesc_meta", None)
        # the parameters' types with each tensor descriptor expanded, as the arguments will be
        self.types = tuple(expand_signature(self.signature.values(), tensordesc_meta, "nvTmaDesc"))
        self.launch = wrap_handle_tensordesc_impl(self._launch, self.signature, tensordesc_meta, _tensordesc_arg)

    def __call__(self, gridX, gridY, gridZ, stream, function, packed_metadata, launch_metadata, launch_enter_hook,
                 launch_exit_hook, *args):
        if launch_enter_hook is not None:
            launch_enter_hook(launch_metadata)
        self.launch(gridX, gridY, gridZ, stream, function, packed_metadata, args)
        if launch_exit_hook is not None:
            launch_exit_hook(launch_metadata)

    def _launch(self, gridX, gridY, gridZ, stream, function, packed_metadata, args):
        global _launching
        kernel: ptxvm.Kernel = function
        num_warps, num_ctas, shared = packed_metadata
        values: list = []
        _flatten(self.types, tuple(args), values)
        storages = _Storages()
        scratch: list[ptxvm.DeviceArray] = []
        try:
            params = iter(kernel.params)
            raw: list[bytes] = []
            for ty, value in values:
                if ty == "constexpr":
                    continue
                _, size, _ = next(params)
                raw.append(self._bytes(ty, value, size, storages))
            grid = gridX * gridY * gridZ
            for (size, align), allocator in zip((self.global_scratch, self.profile_scratch), _allocators()):
                next(params)
                raw.append(struct.pack("<Q", self._scratch(size * grid * num_ctas, align, allocator, storages, scratch)))
            _launching = storages
            kernel(*raw, grid=(gridX * num_ctas, gridY, gridZ), block=32 * num_warps, shared=shared,
                   cluster=(num_ctas, 1, 1) if num_ctas > 1 else None, cooperative=self.cooperative)
        finally:
            _launching = None
            storages.free()
            for s in scratch:
                s.free()

    @staticmethod
    def _scratch(nbytes: int, align: int, allocator: Any, storages: _Storages, own: list) -> int:
        """The scratch's device address: from the allocator the program set (triton.set_allocator,
        its buffer adopted like a tensor's storage), else memory of the launch's own (0 for none)."""
        if not nbytes:
            return 0
        if allocator is not None:
            return storages.address(allocator(nbytes, align, None))
        own.append(device().alloc(nbytes))
        return own[-1].address

    @staticmethod
    def _bytes(ty: Any, value: Any, size: int, storages: _Storages) -> bytes:
        if isinstance(value, _TensorMap):
            return ptxvm._ptxvm.encode_tensor_map(address=storages.address(value.base), **value.fields)
        if value is None:
            return bytes(size)
        if hasattr(value, "data_ptr"):
            return struct.pack("<Q", storages.address(value))
        if isinstance(value, float) or (isinstance(ty, str) and ty.startswith(("fp", "bf"))):
            if ty in ("fp16", "bf16"):
                import torch
                return torch.tensor([value], dtype=getattr(torch, "float16" if ty == "fp16" else "bfloat16")) \
                    .view(torch.int16).numpy().tobytes()
            return struct.pack("<f" if size == 4 else "<d", float(value))
        return int(value).to_bytes(size, "little", signed=int(value) < 0)


class PtxvmDriver(DriverBase):

    def __init__(self) -> None:
        _answer_for_the_target()
        self.utils = _Utils()
        self.launcher_cls = _Launcher

    @staticmethod
    def is_active() -> bool:
        return active()

    def map_python_to_cpp_type(self, ty: str) -> str:
        from triton.backends.nvidia.driver import ty_to_cpp
        return ty_to_cpp(ty)

    def get_current_target(self) -> GPUTarget:
        return GPUTarget("cuda", capability(), 32)

    def get_active_torch_device(self):
        import torch
        return torch.device("cpu")

    def get_current_device(self) -> int:
        return 0

    def set_current_device(self, device_index: int) -> None:
        pass

    def get_current_stream(self, device_index: int | None = None) -> int:
        return 0

    def get_device_capability(self, device_index: int = 0) -> tuple[int, int]:
        return divmod(capability(), 10)

    def get_device_interface(self):
        return _DeviceInterface

    def get_benchmarker(self):
        from triton.testing import do_bench
        return do_bench

    def get_empty_cache_for_benchmark(self):
        import torch
        return torch.empty(1 << 20, dtype=torch.int8)

    def clear_cache(self, cache: Any) -> None:
        cache.zero_()
