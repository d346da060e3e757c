#!/usr/bin/env python3
"""Regenerate tests/kernels/ptx/ from cuda/*.cu and triton/*.py.

Developer tool (not run by CI). Needs nvcc (CUDA 13.0) and `pip install triton`.
CUDA files: `nvcc -ptx -arch=sm_90 -std=c++17` -> ptx/<stem>.sm_90.ptx.
Triton kernels (the CONFIGS of each triton/*.py): triton.compile(...,
target=GPUTarget("cuda", arch, 32)), arch from the config (default 80) ->
ptx/triton_<name>.cuda<arch>.ptx, plus ptx/triton_meta.json with each kernel's
PTX file, entry name, block size (32 * num_warps), dynamic shared-memory size and, for kernels
with host-side tensor descriptors, how each tensor map is to be built (swizzle, element type, box).
Triton is pointed at the local ptxas so that it emits `.version 9.0`, which
the local toolchain accepts. Sources are compiled from copies under a fixed
/tmp path so that the checkout's location never reaches the output.
"""
import importlib.util, json, os, shutil, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
PTX_DIR = os.path.join(HERE, "ptx")
NVCC = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
FIXED = "/tmp/ptxvm_kernels_src"


def build_cuda():
    os.makedirs(os.path.join(FIXED, "cuda"), exist_ok=True)
    for fn in sorted(os.listdir(os.path.join(HERE, "cuda"))):
        if not fn.endswith(".cu"):
            continue
        src = os.path.join(FIXED, "cuda", fn)
        shutil.copyfile(os.path.join(HERE, "cuda", fn), src)
        out = os.path.join(PTX_DIR, fn[:-3] + ".sm_90.ptx")
        subprocess.run([NVCC, "-ptx", "-arch=sm_90", "-std=c++17", src, "-o", out], check=True)
        print("wrote", os.path.relpath(out, HERE))


def build_triton():
    os.environ.setdefault("TRITON_PTXAS_PATH", "/usr/local/cuda/bin/ptxas")
    os.environ.setdefault("TRITON_PTXAS_BLACKWELL_PATH", "/usr/local/cuda/bin/ptxas")
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # Triton 3.9 default, pinned
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    os.makedirs(os.path.join(FIXED, "triton"), exist_ok=True)
    meta = {}
    for fn in sorted(os.listdir(os.path.join(HERE, "triton"))):
        if not fn.endswith(".py"):
            continue
        src = os.path.join(FIXED, "triton", fn)
        shutil.copyfile(os.path.join(HERE, "triton", fn), src)
        spec = importlib.util.spec_from_file_location(fn[:-3], src)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        for cfg in mod.CONFIGS:
            arch = cfg.get("arch", 80)
            k = triton.compile(ASTSource(fn=cfg["fn"], signature=cfg["signature"], constexprs=cfg["constexprs"],
                                         attrs=cfg.get("attrs")),
                               target=GPUTarget("cuda", arch, 32), options=cfg["options"])
            ptx = f"triton_{cfg['name']}.cuda{arch}.ptx"
            with open(os.path.join(PTX_DIR, ptx), "w") as f:
                f.write(k.asm["ptx"])
            meta[cfg["name"]] = {"ptx": ptx, "kernel": k.metadata.name, "block": 32 * k.metadata.num_warps,
                                 "shared_bytes": k.metadata.shared}
            if getattr(k.metadata, "tensordesc_meta", None):  # how the host must build each tensor map
                meta[cfg["name"]]["tensordesc"] = [
                    {"swizzle": d["swizzle"], "elem_type": d["elem_type"], "block": list(d["block_size"])}
                    for d in k.metadata.tensordesc_meta]
            print("wrote", os.path.join("ptx", ptx))
    with open(os.path.join(PTX_DIR, "triton_meta.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    os.makedirs(PTX_DIR, exist_ok=True)
    which = sys.argv[1:] or ["cuda", "triton"]
    if "cuda" in which:
        build_cuda()
    if "triton" in which:
        build_triton()
