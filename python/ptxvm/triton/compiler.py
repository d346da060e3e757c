"""Triton's NVIDIA compiler, stopping at PTX (the stages up to "ptx"; no cubin)."""
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

    def __init__(self, target):
        super().__init__(target)
        self.binary_ext = "ptx"  # what the launcher loads

    def parse_options(self, opts):
        # PTX ISA 9.0 unless the kernel asks for another: LLVM emits 9.0's instructions whatever
        # Triton's ptxas is (Triton only rewrites the .version line to that ptxas's), and ptxvm reads
        # the ISA up to 9.1.
        return super().parse_options({**opts, "ptx_version": opts.get("ptx_version") or 90})

    def add_stages(self, stages, options, language):
        super().add_stages(stages, options, language)
        stages.pop("cubin", None)

    def hash(self):
        return "ptxvm-" + super().hash()
