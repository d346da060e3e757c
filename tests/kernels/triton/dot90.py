"""The tl.dot GEMMs of dot.py compiled for cuda:90 (by generate.py): with 64-row tiles and one
warpgroup, Triton feeds them to the warpgroup tensor cores, wgmma.mma_async m64n64 from shared
memory (f16, bf16, tf32, fp8 e4m3 and e5m2), and with num_stages=3 stages the tiles by cp.async."""
import importlib.util, os

_spec = importlib.util.spec_from_file_location("dot", os.path.join(os.path.dirname(os.path.abspath(__file__)), "dot.py"))
dot = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(dot)


def _gemm(name, elem, prec="ieee"):
    cfg = dot._gemm(name, elem, 90, prec)
    cfg["constexprs"].update(BM=64, BN=64)
    return cfg


CONFIGS = [
    _gemm("dot90_f16", "fp16"),
    _gemm("dot90_bf16", "bf16"),
    _gemm("dot90_tf32", "fp32", "tf32"),
    _gemm("dot90_fp8e4m3", "fp8e4nv"),
    _gemm("dot90_fp8e5m2", "fp8e5"),
    dict(dot._pipelined("dot90_f16_pipelined", dot.dot_gemm, {"BM": 64, "BN": 64, "BK": 32, "PREC": "ieee"}, "MNK"),
         arch=90),
    dict(dot._pipelined("dot90_f16_masked", dot.dot_gemm_masked, {"BM": 64, "BN": 64, "BK": 32}, "MNK"), arch=90),
]
