"""ptxvm: run NVIDIA PTX kernels on the CPU, with the GPU's results.

    import numpy as np, ptxvm
    mod = ptxvm.Module(open("saxpy.ptx").read())
    x, y = np.arange(1024, dtype=np.float32), np.ones(1024, dtype=np.float32)
    mod.kernel("saxpy")(x, y, ptxvm.f32(2.0), ptxvm.u32(1024), grid=4, block=256)   # y, in place

Arguments of a launch:
  * arrays — anything with the buffer protocol (NumPy, bytearray, memoryview) or ``__dlpack__``
    on the CPU (PyTorch CPU tensors): used in place as device memory, no copies (the kernel reads
    and writes the array itself). ``In(array)`` gives the kernel a copy instead, so that its writes
    cannot reach the array; ``Out`` and ``InOut`` say the direction and are used in place.
  * ``DeviceArray`` — memory that stays on the device across launches (``Device.alloc``,
    ``Device.to_device``); its address is the argument.
  * typed scalars — ``u8 u16 u32 u64 s8 s16 s32 s64 f16 f32 f64 b8 b16 b32 b64 pred``; a plain
    ``int`` or ``float`` takes the size the kernel declares for the parameter (int: two's
    complement, float: f32 for 4 bytes, f64 for 8).
  * ``bytes`` — a parameter's bytes as they are (a tensor map, a struct).

Errors: ``LoadError`` (invalid or unsupported PTX, with file:line:column diagnostics),
``LaunchError`` (a launch ptxvm refuses), ``GuestFault`` (the kernel faulted: the report names the
kernel, CTA, warp, lane, PC and PTX line), ``CheckError`` (a launch with ``check=`` found undefined
behaviour: memcheck, racecheck, synccheck; docs/Sanitizer.md).
"""
from __future__ import annotations

import os
import struct
from typing import Any, Callable, NamedTuple, Sequence

from ._ptxvm import Device as _Device

__all__ = [
    "Device", "DeviceArray", "Texture", "Module", "Kernel", "In", "Out", "InOut", "LoadError", "LaunchError", "GuestFault",
    "CheckError", "CheckReport",
    "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "f16", "f32", "f64", "b8", "b16", "b32", "b64", "pred",
    "default_device",
]


class LoadError(ValueError):
    """The PTX does not load: ``diagnostics`` holds ptxvm's messages (file:line:col: ...)."""

    def __init__(self, diagnostics: str):
        super().__init__(diagnostics)
        self.diagnostics = diagnostics


class LaunchError(ValueError):
    """ptxvm refuses the launch (unknown kernel, argument sizes, launch limits)."""


class GuestFault(RuntimeError):
    """The kernel faulted, deadlocked or trapped; ``report`` says where."""

    def __init__(self, report: str, output: str = ""):
        super().__init__(report)
        self.report = report
        self.output = output


class CheckError(RuntimeError):
    """A launch with ``check=`` found something (docs/Sanitizer.md). ``reports`` holds one
    ``CheckReport`` per finding; the message is their text, followed by the fault's report when the
    launch also stopped (memcheck)."""

    def __init__(self, reports: list["CheckReport"], fault: str = "", output: str = ""):
        super().__init__("".join(r.text for r in reports) + fault)
        self.reports = reports
        self.fault = fault
        self.output = output


class CheckReport(NamedTuple):
    """One finding of the sanitizer: its check ("memcheck", "racecheck", "synccheck", "initcheck") and kind, the
    PTX line, the program's source file and line from .loc (empty and 0 without), and the text."""
    check: str
    kind: str
    line: int
    source_file: str
    source_line: int
    text: str


# ---- typed scalars ----------------------------------------------------------------------------

class _Scalar:
    fmt = ""

    def __init__(self, value: Any):
        self.value = value

    def bytes(self) -> bytes:
        return struct.pack("<" + self.fmt, self.value)

    def __repr__(self) -> str:
        return f"ptxvm.{type(self).__name__}({self.value!r})"


def _scalar(name: str, fmt: str, doc: str) -> type:
    return type(name, (_Scalar,), {"fmt": fmt, "__doc__": doc})


u8, u16, u32, u64 = (_scalar(n, f, f"A .{n} kernel argument.") for n, f in
                     (("u8", "B"), ("u16", "H"), ("u32", "I"), ("u64", "Q")))
s8, s16, s32, s64 = (_scalar(n, f, f"A .{n} kernel argument.") for n, f in
                     (("s8", "b"), ("s16", "h"), ("s32", "i"), ("s64", "q")))
b8, b16, b32, b64 = (_scalar(n, f, f"A .{n} kernel argument (an unsigned value).") for n, f in
                     (("b8", "B"), ("b16", "H"), ("b32", "I"), ("b64", "Q")))
f16, f32, f64 = (_scalar(n, f, f"A .{n} kernel argument.") for n, f in (("f16", "e"), ("f32", "f"), ("f64", "d")))
pred = _scalar("pred", "?", "A .pred kernel argument.")


# ---- arrays -----------------------------------------------------------------------------------

class _Direction:
    in_place = True

    def __init__(self, array: Any):
        self.array = array


class In(_Direction):
    """An array the kernel only reads: it gets a copy, which its writes cannot reach past."""
    in_place = False


class Out(_Direction):
    """An array the kernel writes: used in place."""


class InOut(_Direction):
    """An array the kernel reads and writes: used in place (what a bare array is)."""


def _typed_view(obj: Any) -> memoryview:
    """A view of an array with its element format and shape (buffer protocol, or CPU __dlpack__)."""
    try:
        return memoryview(obj)
    except TypeError:
        if not hasattr(obj, "__dlpack__"):
            raise TypeError(f"{type(obj).__name__} is no array: it has neither the buffer protocol nor __dlpack__")
        import numpy as np
        return memoryview(np.from_dlpack(obj))


def _host_view(obj: Any) -> memoryview:
    """A writable, C-contiguous byte view of an array (buffer protocol, or CPU __dlpack__)."""
    view = _typed_view(obj)
    if not view.c_contiguous:
        raise ValueError("arrays must be C-contiguous")
    return view.cast("B") if view.ndim != 1 or view.format != "B" else view


class DeviceArray:
    """Device memory: ``address`` (its guest address, the kernel argument) and ``nbytes``."""

    def __init__(self, device: "Device", address: int, nbytes: int):
        self.device, self.address, self.nbytes = device, address, nbytes
        self.host: memoryview | None = None  # adopted host memory

    def write(self, array: Any) -> None:
        """Copies `array`'s bytes to the start of this memory."""
        self.device._dev.write(self.address, _host_view(array))

    def read(self, out: Any) -> Any:
        """Copies this memory's first len(out) bytes into `out` (a writable array) and returns it."""
        self.device._dev.read(self.address, _host_view(out))
        return out

    def free(self) -> None:
        if self.address:
            self.device._dev.free(self.address)
            self.address = 0
            self.host = None


class Device:
    """A ptxvm device: its global memory and the modules loaded on it."""

    def __init__(self) -> None:
        self._dev = _Device()

    def alloc(self, nbytes: int) -> DeviceArray:
        """Zeroed device memory of `nbytes` bytes."""
        return DeviceArray(self, self._dev.malloc(max(1, int(nbytes))), int(nbytes))

    def adopt(self, array: Any) -> DeviceArray:
        """`array`'s own memory as device memory (no copy) until ``free()``: kernels read and write
        the array itself, at its host address (unified addressing) unless that memory is adopted
        already. The DeviceArray keeps the array alive."""
        view = _host_view(array)
        d = DeviceArray(self, self._dev.adopt(view), view.nbytes)
        d.host = view  # exported: the array can be neither freed nor resized meanwhile
        return d

    def set_host_memory_resolver(self, resolver: Callable[[int], bool] | None) -> None:
        """For memory a kernel reaches only through pointers it reads (an array of addresses):
        when a kernel touches an address no device memory holds, ``resolver(address)`` runs (on a
        launch's host thread, holding the GIL). It may ``adopt()`` the host memory holding that
        address, which then lies at its host address, and returns whether it did; the access goes
        ahead, else it faults. None removes it."""
        self._dev.set_host_memory_resolver(resolver)

    def to_device(self, array: Any) -> DeviceArray:
        """A copy of `array` in device memory."""
        view = _host_view(array)
        d = self.alloc(view.nbytes)
        d.write(view)
        return d

    def to_host(self, darray: DeviceArray, out: Any) -> Any:
        """Copies `darray` into `out` (a writable array of its size) and returns `out`."""
        return darray.read(out)

    def load(self, ptx: str, name: str = "module.ptx") -> "Module":
        return Module(ptx, device=self, name=name)

    def texture(self, array: Any, *, channels: int = 1, layered: bool = False, cubemap: bool = False,
                filter: str = "point", address: str | Sequence[str] = "clamp", normalized: bool = False,
                read_mode: str = "normalized_float", srgb: bool = False,
                border: Sequence[float] = (0.0, 0.0, 0.0, 0.0)) -> "Texture":
        """A texture object over a copy of `array` (PTX §5.3, CUDA's cudaTextureObject_t): 8-, 16- or
        32-bit integers, float16 or float32, shaped ``[depth or layers,] [height,] width [, channels]``;
        the kernel takes it as a .u64 handle. `address` is one mode or one per axis of "wrap",
        "clamp", "mirror", "border"; `filter` "point" or "linear"; `read_mode` "normalized_float"
        or "element_type"."""
        modes = [address] if isinstance(address, str) else list(address)
        names = ["wrap", "clamp", "mirror", "border"]
        if not 1 <= len(modes) <= 3 or any(m not in names for m in modes):
            raise LaunchError(f"address takes 1 to 3 of {names}, not {address!r}")
        if filter not in ("point", "linear") or read_mode not in ("normalized_float", "element_type"):
            raise LaunchError("filter is 'point' or 'linear'; read_mode 'normalized_float' or 'element_type'")
        modes = [names.index(m) for m in modes]
        modes += [modes[-1]] * (3 - len(modes))
        return Texture(self, array, channels, layered, cubemap, False, modes, filter == "linear",
                       read_mode == "element_type", normalized, srgb, [float(b) for b in border])

    def surface(self, array: Any, *, channels: int = 1, layered: bool = False) -> "Texture":
        """A surface object over a copy of `array` (shaped as for ``texture``); ``read(out)`` copies
        its texels back after a launch."""
        return Texture(self, array, channels, layered, False, True, [1, 1, 1], False, False, False, False,
                       [0.0] * 4)


# memoryview format -> CUarray_format
_CHANNEL_FORMATS = {"B": 0x01, "H": 0x02, "I": 0x03, "b": 0x08, "h": 0x09, "i": 0x0a, "e": 0x10, "f": 0x20}


class Texture:
    """A texture or surface object (``Device.texture``, ``Device.surface``): its texels in device
    memory and the handle kernels take."""

    def __init__(self, device: Device, array: Any, channels: int, layered: bool, cubemap: bool, surface: bool,
                 modes: list[int], linear: bool, integer: bool, normalized: bool, srgb: bool, border: list[float]):
        view, typed = _host_view(array), _typed_view(array)  # the bytes; the element format and shape
        fmt = typed.format.lstrip("<=@")
        if fmt not in _CHANNEL_FORMATS:
            raise LaunchError(f"a texture holds 8/16/32-bit integers, float16 or float32, not format {typed.format!r}")
        shape = list(typed.shape)
        if channels not in (1, 2, 4) or (channels > 1 and (not shape or shape[-1] != channels)):
            raise LaunchError(f"channels is 1, 2 or 4, and the array's last axis when more than 1 (shape {shape})")
        if channels > 1:
            shape.pop()
        if not 1 <= len(shape) <= 3:
            raise LaunchError(f"a texture has 1 to 3 axes besides the channels, not shape {list(typed.shape)}")
        width = shape[-1]
        height = shape[-2] if len(shape) >= 2 else 0
        depth = shape[0] if len(shape) == 3 else 0
        if (layered or cubemap) and len(shape) == 2:
            height, depth = 0, shape[0]
        self.device = device
        self.array = device.to_device(view)
        try:
            self.handle = device._dev.create_texture(self.array.address, view.nbytes, _CHANNEL_FORMATS[fmt], channels,
                                                     width, height, depth, layered, cubemap, surface, modes,
                                                     int(linear), integer, normalized, srgb, border)
        except ValueError as e:
            self.array.free()
            raise LaunchError(str(e)) from None

    def read(self, out: Any) -> Any:
        """Copies the texels into `out` (a writable array of their size) and returns `out`."""
        return self.array.read(out)

    def free(self) -> None:
        if self.handle:
            self.device._dev.destroy_object(self.handle)
            self.handle = 0
            self.array.free()


_default: Device | None = None


def default_device() -> Device:
    """The device modules load on when none is given."""
    global _default
    if _default is None:
        _default = Device()
    return _default


def _progress(progress: bool | None) -> bool:
    if progress is not None:
        return bool(progress)
    import sys
    return bool(getattr(sys.stderr, "isatty", lambda: False)())


def _dims(v: int | Sequence[int], what: str) -> list[int]:
    dims = [int(v)] if isinstance(v, int) else [int(x) for x in v]
    if not 1 <= len(dims) <= 3 or any(d < 1 for d in dims):
        raise LaunchError(f"{what} takes 1 to 3 positive sizes, not {v!r}")
    return dims


class Kernel:
    """A kernel of a loaded module; call it with its arguments and grid=, block= (and shared=,
    cluster=, threads=, model=, step_limit=, cooperative=)."""

    def __init__(self, module: "Module", name: str):
        self.module, self.name = module, name
        self.params = module._mod.params(name)  # (name, size, align) per parameter
        if not self.params and name not in module.kernels():
            raise LaunchError(f"no kernel named '{name}' in {module.name}")

    def __call__(self, *args: Any, grid: int | Sequence[int], block: int | Sequence[int], shared: int = 0,
                 cluster: int | Sequence[int] | None = None, threads: int = 0, model: str = "sm90",
                 step_limit: int = 0, cooperative: bool = False, progress: bool | None = None,
                 check: str = "") -> str:
        """Launches the kernel and returns what it printed (printf). `progress` shows "CTAs done /
        total" on stderr while a launch longer than a second runs (default: when stderr is a
        terminal). `check` runs the sanitizer ("memcheck,racecheck,synccheck,initcheck,async,tcgen05" or "all");
        what it finds raises CheckError."""
        if len(args) != len(self.params):
            raise LaunchError(f"kernel '{self.name}' takes {len(self.params)} arguments, {len(args)} given")
        if model not in ("sm90", "exact"):
            raise LaunchError(f"model is 'sm90' (the hardware's tensor-core arithmetic) or 'exact', not {model!r}")
        device = self.module.device
        raw: list[bytes] = []
        temporaries: list[DeviceArray] = []
        try:
            for value, (pname, size, _) in zip(args, self.params):
                raw.append(self._argument(device, value, pname, size, temporaries))
            try:
                ok, error, output, fault, reports = self.module._mod.launch(
                    self.name, _dims(grid, "grid"), _dims(block, "block"), raw,
                    _dims(cluster, "cluster") if cluster is not None else [], int(shared), int(threads),
                    int(step_limit), model == "exact", bool(cooperative), _progress(progress), check)
            except ValueError as e:  # an unknown check
                raise LaunchError(f"check: {e}") from None
            if reports:
                raise CheckError([CheckReport(*r) for r in reports], "" if ok else error, output)
            if not ok:
                raise GuestFault(error, output) if fault else LaunchError(error)
            return output
        finally:
            for t in temporaries:
                t.free()

    def _argument(self, device: Device, value: Any, pname: str, size: int, temporaries: list) -> bytes:
        def fits(b: bytes) -> bytes:
            if len(b) != size:
                raise LaunchError(f"argument '{pname}' of kernel '{self.name}' is {size} bytes; {len(b)} given")
            return b
        if isinstance(value, _Scalar):
            return fits(value.bytes())
        if isinstance(value, DeviceArray):
            return fits(struct.pack("<Q", value.address))
        if isinstance(value, Texture):
            return fits(struct.pack("<Q", value.handle))
        if isinstance(value, bytes):
            return fits(bytes(value))
        if isinstance(value, bool):
            return fits(struct.pack("<?", value))
        if isinstance(value, int):
            if size not in (1, 2, 4, 8):
                raise LaunchError(f"argument '{pname}' is {size} bytes: no integer fits it")
            return value.to_bytes(size, "little", signed=value < 0)
        if isinstance(value, float):
            if size not in (4, 8):
                raise LaunchError(f"argument '{pname}' is {size} bytes: pass ptxvm.f16(...) or bytes")
            return struct.pack("<f" if size == 4 else "<d", value)
        direction = value if isinstance(value, _Direction) else InOut(value)
        view = _host_view(direction.array)
        if direction.in_place and view.readonly:
            raise LaunchError(f"argument '{pname}' is read-only: pass ptxvm.In(array) to give the kernel a copy")
        darray = device.adopt(view) if direction.in_place else device.to_device(view)
        temporaries.append(darray)
        return fits(struct.pack("<Q", darray.address))


class Module:
    """PTX loaded on a device: ``Module(text_or_path)``; ``kernel(name)`` gives a kernel."""

    def __init__(self, ptx: str | os.PathLike, device: Device | None = None, name: str | None = None):
        text = str(ptx)
        if name is None:
            name = "module.ptx"
            if "\n" not in text and (text.endswith(".ptx") or os.path.exists(text)):
                name = os.path.basename(text)
                with open(text, encoding="utf-8") as f:
                    text = f.read()
        self.device = device or default_device()
        self.name = name
        try:
            self._mod = self.device._dev.load(text, name)
        except RuntimeError as e:
            raise LoadError(str(e)) from None

    def kernels(self) -> list[str]:
        """The kernel names, in declaration order."""
        return list(self._mod.kernels())

    def kernel(self, name: str) -> Kernel:
        return Kernel(self, name)

    def __getattr__(self, name: str) -> Kernel:
        if name.startswith("_"):
            raise AttributeError(name)
        return self.kernel(name)
