"""Triton's NVIDIA compiler, stopping at PTX: its stages up to "ptx", then a "cubin" that is the
PTX text as bytes, the binary ptxvm loads (no ptxas run). The binary keeps Triton's name for it, so
`asm["ptx"]` stays text, `asm["cubin"]` is what the device loads, and TRITON_STORE_BINARY_ONLY
still stores it."""
import triton.backends.nvidia.compiler as _nvidia

from . import active

# Two backends may not both take the "cuda" target: while ptxvm is active, Triton's own NVIDIA
# backend steps aside (its driver is not active anyway on a machine without a GPU).
_nvidia_supports = _nvidia.CUDABackend.supports_target
_nvidia.CUDABackend.supports_target = staticmethod(lambda target: not active() and _nvidia_supports(target))


class PtxvmBackend(_nvidia.CUDABackend):

    @staticmethod
    def supports_target(target):
        return target.backend == "cuda" and active()

    def parse_options(self, opts):
        # PTX ISA 9.0 unless the kernel asks for another: LLVM emits 9.0's instructions whatever
        # Triton's ptxas is (Triton only rewrites the .version line to that ptxas's), and ptxvm reads
        # the ISA up to 9.1.
        return super().parse_options({**opts, "ptx_version": opts.get("ptx_version") or 90})

    def add_stages(self, stages, options, language):
        super().add_stages(stages, options, language)
        stages["cubin"] = lambda ptx, metadata: ptx.encode()

    def hash(self):
        # "2": the binary became the "cubin" stage, so kernels cached before are compiled again
        return "ptxvm2-" + super().hash()
