"""More tile shapes for the cuda:90 tl.dot GEMMs (dot90.py has 64 x 64 tiles and one warpgroup):
two warpgroups a program (128-row tiles, num_warps=8), 128-column wgmma (m64n128k16), fp8 with a
64-deep K tile (two m64n64k32 a step, 64-byte swizzle). Plain pointer loads: no tensor
descriptors, no TMA; Triton lowers tl.dot to wgmma.mma_async from shared-memory descriptors. The
kernels are dot.py's."""
import importlib.util, os

_spec = importlib.util.spec_from_file_location("dot", os.path.join(os.path.dirname(os.path.abspath(__file__)), "dot.py"))
dot = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(dot)


def _cfg(name, fn, elem, tile, warps, stages, prec=None, divisible="MNK"):
    """A cuda:90 GEMM config: `tile` (BM, BN, BK), num_warps, num_stages; the pointers and the
    sizes named in `divisible` are declared multiples of 16 (as Triton's launcher specializes a
    launch whose arguments are), so that loads and cp.async copies move 16 bytes."""
    BM, BN, BK = tile
    constexprs = {"BM": BM, "BN": BN, "BK": BK}
    if prec is not None:
        constexprs["PREC"] = prec
    sig = {"a_ptr": "*" + elem, "b_ptr": "*" + elem, "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
           **{k: "constexpr" for k in constexprs}}
    attrs = {(i,): [["tt.divisibility", 16]] for i in range(3)}
    attrs.update({(3 + i,): [["tt.divisibility", 16]] for i, arg in enumerate("MNK") if arg in divisible})
    return dict(name=name, fn=fn, arch=90, signature=sig, constexprs=constexprs, attrs=attrs,
                options={"num_warps": warps, "num_stages": stages})


# name, function, element type, (BM, BN, BK), num_warps, num_stages (1: no software pipelining;
# 3: loads staged through shared memory by cp.async, one wgmma group left in flight).
CONFIGS = [
    _cfg("dot90_bf16_2wg", dot.dot_gemm, "bf16", (128, 64, 32), 8, 1, "ieee"),
    _cfg("dot90_bf16_2wg_pipelined", dot.dot_gemm, "bf16", (128, 64, 32), 8, 3, "ieee"),
    _cfg("dot90_f16_2wg_masked", dot.dot_gemm_masked, "fp16", (128, 64, 32), 8, 3),
    _cfg("dot90_f16_n128_pipelined", dot.dot_gemm, "fp16", (64, 128, 32), 4, 3, "ieee"),
    _cfg("dot90_fp8e4m3_k64", dot.dot_gemm, "fp8e4nv", (64, 64, 64), 4, 1, "ieee"),
    _cfg("dot90_fp8e5m2_k64", dot.dot_gemm, "fp8e5", (64, 64, 64), 4, 1, "ieee"),
]
