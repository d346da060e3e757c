#!/usr/bin/env python3
"""Record the outputs of every launch in launches.py on a real GPU.

Run on the GPU machine (CuPy needed): python3 tests/kernels/record.py [OUT.npz]
Loads the committed PTX files with the CUDA driver (cupy.RawModule(path=...)
-> cuModuleLoad), launches each kernel twice from fresh inputs (cooperative
launches through cuLaunchCooperativeKernel), each launch in a process of its
own, checks that both runs agree, and writes recorded.npz (compressed) with, per launch <name>:
  <name>/<buffer>   every output buffer after the launch
  <name>/stdout     the device printf output (uint8), for printf launches
  <name>/inputs     sha256 of the launch's inputs (uint8[32])
plus ptx/<file> (sha256 of each PTX file used) and meta/device (the GPU's name).
A launch that fails or differs between its two runs is reported and left out.
"""
import ctypes, hashlib, os, subprocess, sys, tempfile
import numpy as np
import cupy as cp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import launches

libc = ctypes.CDLL(None)


CU_TYPES = {"uint8": 0, "uint16": 1, "uint32": 2, "int32": 3, "uint64": 4, "int64": 5, "float16": 6, "float32": 7,
            "float64": 8, "bfloat16": 9, "float32_ftz": 10, "tfloat32": 11, "tfloat32_ftz": 12}
CU_SWIZZLE = {"none": 0, "32B": 1, "64B": 2, "128B": 3}


def tensor_map(fields, address):
    """The CUtensorMap cuTensorMapEncodeTiled builds from a launch's tensormap fields."""
    cuda = ctypes.CDLL("libcuda.so.1")
    m = (ctypes.c_uint64 * 16)()
    rank = len(fields["dims"])
    u64, u32 = ctypes.c_uint64, ctypes.c_uint32
    es = fields.get("element_strides", [1] * rank)
    err = cuda.cuTensorMapEncodeTiled(
        m, CU_TYPES[fields["dtype"]], u32(rank), ctypes.c_void_p(address), (u64 * rank)(*fields["dims"]),
        (u64 * max(1, rank - 1))(*fields.get("strides", [0])), (u32 * rank)(*fields["box"]), (u32 * rank)(*es),
        0, CU_SWIZZLE[fields.get("swizzle", "none")], 0, 0)
    if err:
        raise RuntimeError(f"cuTensorMapEncodeTiled: error {err}")
    return m


def launch_with_maps(fn, launch, args):
    """cuLaunchKernel through the driver: CuPy cannot pass a 128-byte CUtensorMap by value."""
    cuda = ctypes.CDLL("libcuda.so.1")
    held = []
    for a in args:
        if isinstance(a, cp.ndarray):
            held.append(ctypes.c_uint64(a.data.ptr))
        elif isinstance(a, ctypes.Array):
            held.append(a)
        else:
            held.append(np.ctypeslib.as_ctypes(np.array(a)))
    params = (ctypes.c_void_p * len(held))(*[ctypes.cast(ctypes.pointer(h), ctypes.c_void_p) for h in held])
    g, b = (list(launch.grid) + [1, 1])[:3], (list(launch.block) + [1, 1])[:3]
    err = cuda.cuLaunchKernel(ctypes.c_void_p(fn.kernel.ptr), *[ctypes.c_uint(x) for x in g + b],
                              ctypes.c_uint(launch.shared_bytes), None, params, None)
    if err:
        raise RuntimeError(f"cuLaunchKernel: error {err}")


def run_once(launch, fn):
    args, outs, tensors = [], [], {}
    for a in launch.args:
        if a[0] in ("in", "out"):
            d = cp.asarray(np.ascontiguousarray(a[2]))
            args.append(d)
            if a[0] == "out":
                outs.append((a[1], d))
        elif a[0] == "tensormap":  # the buffer, once per name, and a map over it
            name = a[1]["buffer"]
            if name not in tensors:
                tensors[name] = cp.asarray(np.ascontiguousarray(a[2]))
                if a[3]:
                    outs.append((name, tensors[name]))
            args.append(tensor_map(a[1], tensors[name].data.ptr))
        else:
            args.append({"u32": np.uint32, "s32": np.int32, "u64": np.uint64, "f32": np.float32,
                         "f64": np.float64}[a[0]](a[1]))
    cp.cuda.Device().synchronize()
    # Device printf goes to the process's C stdout when the context synchronizes.
    sys.stdout.flush()
    libc.fflush(None)
    with tempfile.TemporaryFile() as cap:
        saved = os.dup(1)
        os.dup2(cap.fileno(), 1)
        try:
            if tensors:
                launch_with_maps(fn, launch, args)
            else:
                fn(tuple(launch.grid), tuple(launch.block), tuple(args), shared_mem=launch.shared_bytes)
            cp.cuda.Device().synchronize()
            libc.fflush(None)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        cap.seek(0)
        text = cap.read()
    return {n: cp.asnumpy(d) for n, d in outs}, text


def record_one(launch, rec):
    """Runs `launch` twice; adds its outputs to rec. Returns an error or None."""
    path = os.path.join(launches.PTX_DIR, launch.ptx)
    # A module loaded with enable_cooperative_groups launches its kernels
    # through cuLaunchCooperativeKernel.
    fn = cp.RawModule(path=path, enable_cooperative_groups=launch.cooperative).get_function(launch.kernel)
    first, text1 = run_once(launch, fn)
    second, text2 = run_once(launch, fn)
    if text1 != text2 or any(first[k].tobytes() != second[k].tobytes() for k in first):
        return "NONDETERMINISTIC: two runs differ"
    if text1 and not launch.printf:
        return f"UNEXPECTED OUTPUT {text1!r}"
    with open(path, "rb") as f:
        rec["ptx/" + launch.ptx] = np.frombuffer(hashlib.sha256(f.read()).digest(), np.uint8)
    for k, v in first.items():
        rec[f"{launch.name}/{k}"] = v
    if launch.printf:
        rec[f"{launch.name}/stdout"] = np.frombuffer(text1, np.uint8)
    rec[f"{launch.name}/inputs"] = np.frombuffer(bytes.fromhex(launch.input_digest()), np.uint8)
    return None


def main():
    # `record.py --one NAME PART.npz`: one launch in a process of its own, so
    # that a launch that breaks the CUDA context cannot spoil the others.
    if sys.argv[1:2] == ["--one"]:
        launch = {l.name: l for l in launches.all_launches()}[sys.argv[2]]
        rec = {}
        err = record_one(launch, rec)
        if err:
            print(f"FAILED {launch.name}: {err}", flush=True)
            return 1
        np.savez(sys.argv[3], **rec)
        return 0
    out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(launches.HERE, "recorded.npz")
    props = cp.cuda.runtime.getDeviceProperties(0)
    device = props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"])
    print("device:", device, "driver", cp.cuda.runtime.driverGetVersion(), flush=True)
    rec = {"meta/device": np.frombuffer(device.encode(), np.uint8)}
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        for launch in launches.all_launches():
            part = os.path.join(tmp, launch.name + ".npz")
            p = subprocess.run([sys.executable, os.path.abspath(__file__), "--one", launch.name, part],
                               capture_output=True, timeout=120)
            if p.returncode != 0 or not os.path.exists(part):
                print(f"FAILED {launch.name} (exit {p.returncode}):", p.stdout.decode(errors="replace")[-2000:],
                      p.stderr.decode(errors="replace")[-2000:], flush=True)
                failed.append(launch.name)
                continue
            with np.load(part) as z:
                rec.update({k: z[k] for k in z.files})
            if launch.printf:
                print(rec[launch.name + "/stdout"].tobytes().decode(errors="replace"), end="")
            print("ok", launch.name, flush=True)
    np.savez_compressed(out_path, **rec)
    print(f"wrote {out_path}: {os.path.getsize(out_path)} bytes; failed: {failed}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
