#!/usr/bin/env python3
"""Compile the Triton kernels of one tests/corpus/triton/*.py file for one CUDA target.

Called by generate.py as: triton_build.py <kernel.py> <cc> <out_dir>
The kernel file defines CONFIGS: a list of dicts with keys
  name        output name (file becomes triton_<name>.cuda<cc>.ptx)
  fn          the @triton.jit function
  signature   {arg: type} as triton.compile expects ("*fp16", "i32", "constexpr", ...)
  constexprs  {arg: value}
  options     optional dict (num_warps, num_stages, ...)
  targets     optional list of capabilities the config is built for (default all)
No GPU is needed: the target is given explicitly.
"""
import importlib.util, os, shutil, sys
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


# Triton records the kernel's source path in the PTX debug info (.file); the
# source is compiled from a copy at this fixed path so that the output does not
# depend on where the checkout lives.
FIXED_SRC_DIR = "/tmp/ptxvm_corpus_src/triton"


def main():
    path, cc, out_dir = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    os.makedirs(FIXED_SRC_DIR, exist_ok=True)
    fixed = os.path.join(FIXED_SRC_DIR, os.path.basename(path))
    tmp = f"{fixed}.{os.getpid()}"
    shutil.copyfile(path, tmp)
    os.replace(tmp, fixed)
    path = fixed
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    target = GPUTarget("cuda", cc, 32)
    for cfg in mod.CONFIGS:
        if cc not in cfg.get("targets", (80, 90, 100)):
            continue
        src = ASTSource(fn=cfg["fn"], signature=cfg["signature"], constexprs=cfg.get("constexprs", {}))
        k = triton.compile(src, target=target, options=cfg.get("options", {}))
        ptx = k.asm["ptx"]
        with open(os.path.join(out_dir, f"triton_{cfg['name']}.cuda{cc}.ptx"), "w") as f:
            f.write(ptx)


if __name__ == "__main__":
    main()
