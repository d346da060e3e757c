"""A tl.dot GEMM reading and writing through host-side tensor descriptors (Triton's
TensorDescriptor), compiled for cuda:90 by generate.py: each descriptor is a CUtensorMap kernel
parameter (.param .align 64 .b8 [128]) and the tiles move by TMA (cp.async.bulk.tensor loads on
mbarriers, a bulk-group store), multiplied by wgmma.mma_async. launches.py builds the maps as
Triton's launcher would, from the kernel's tensordesc_meta (triton_meta.json)."""
import triton
import triton.language as tl


@triton.jit
def dot_desc(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """C (f32) = A @ B, one BM x BN tile a program, every tile moved by TMA."""
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([pm * BM, k])
        b = b_desc.load([k, pn * BN])
        acc = tl.dot(a, b, acc)
    c_desc.store([pm * BM, pn * BN], acc)


def _config(name, elem, stages):
    return dict(name=name, fn=dot_desc, arch=90,
                signature={"a_desc": f"tensordesc<{elem}[64, 32]>", "b_desc": f"tensordesc<{elem}[32, 64]>",
                           "c_desc": "tensordesc<fp32[64, 64]>", "K": "i32", "BM": "constexpr", "BN": "constexpr",
                           "BK": "constexpr"},
                constexprs={"BM": 64, "BN": 64, "BK": 32},
                options={"num_warps": 4, "num_stages": stages})


CONFIGS = [_config("dot90_desc_f16", "fp16", 1), _config("dot90_desc_f16_pipelined", "fp16", 3),
           _config("dot90_desc_bf16", "bf16", 1)]
