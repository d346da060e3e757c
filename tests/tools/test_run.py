"""`ptxvm run`: manifests, buffers, outputs and exit statuses (docs/LaunchManifest.md)."""
import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

PTXVM = os.environ["PTXVM"]

KERNELS = r"""
.version 8.7
.target sm_90
.address_size 64
.visible .entry scale(.param .u64 out, .param .u64 in, .param .f32 a, .param .u32 n)
{
  .reg .b32 %r<6>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<6>;
  .reg .pred %p1;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  ld.param.f32 %f1, [a];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.s32 %r5, %r3, %r4, %r2;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f2, [%rd4];
  mul.rn.f32 %f2, %f2, %f1;
  add.s64 %rd5, %rd1, %rd3;
  st.global.f32 [%rd5], %f2;
DONE:
  ret;
}
.visible .entry bytes(.param .u64 out, .param .align 4 .b8 s[8], .param .b16 h, .param .s8 c)
{
  .reg .b32 %r<4>;
  .reg .b16 %h1;
  .reg .b64 %rd1;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [s];
  ld.param.u32 %r2, [s+4];
  ld.param.b16 %h1, [h];
  ld.param.s8 %r3, [c];
  st.global.u32 [%rd1], %r1;
  st.global.u32 [%rd1+4], %r2;
  st.global.b16 [%rd1+8], %h1;
  st.global.u32 [%rd1+12], %r3;
  ret;
}
.visible .entry mma(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %laneid;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  mov.b32 %r2, 0x08000800;  // f16 pairs of 2^-13: every product 2^-26
  mov.f32 %f1, 0f3F800000;  // C = 1
  mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f4, %f5, %f6, %f7}, {%r2, %r2}, {%r2}, {%f1, %f1, %f1, %f1};
  st.global.f32 [%rd3], %f4;
  ret;
}
"""


def run(tmp, manifest, *extra):
    path = tmp / "launch.json"
    path.write_text(json.dumps(manifest))
    return subprocess.run([PTXVM, "run", str(path), *extra], capture_output=True, text=True)


@pytest.fixture
def tmp(tmp_path):
    (tmp_path / "k.ptx").write_text(KERNELS)
    return tmp_path


def test_buffers_scalars_and_outputs(tmp):
    x = np.linspace(-3, 3, 100, dtype=np.float32)
    np.save(tmp / "in.npy", x)
    np.save(tmp / "out.npy", np.zeros((10, 10), np.float32))
    r = run(tmp, {"ptx": "k.ptx", "kernel": "scale", "grid": [2], "block": [64],
                  "args": [{"buffer": "out.npy", "output": "res.npy"}, {"buffer": "in.npy"},
                           {"f32": 1.5}, {"u32": 100}]})
    assert r.returncode == 0, r.stderr
    out = np.load(tmp / "out" / "res.npy")
    assert out.shape == (10, 10) and out.dtype == np.float32
    assert np.array_equal(out.ravel(), x * np.float32(1.5))


TMA_KERNEL = r"""
.version 8.0
.target sm_90a
.address_size 64
// Loads the 32 x 8 f32 box at (x, y) of the map through TMA into shared memory, then writes it out.
.visible .entry box(.param .align 64 .b8 tmap[128], .param .u64 out, .param .u32 x, .param .u32 y)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .reg .pred %p<3>;
  .shared .align 1024 .b8 buf[1024];
  .shared .align 8 .b64 bar;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  ld.param.u32 %r2, [x];
  ld.param.u32 %r3, [y];
  mov.b64 %rd1, tmap;
  cvta.param.u64 %rd2, %rd1;
  @%p1 mbarrier.init.shared.b64 [bar], 1;
  bar.sync 0;
  @%p1 mbarrier.arrive.expect_tx.shared.b64 _, [bar], 1024;
  @%p1 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [buf], [%rd2, {%r2, %r3}], [bar];
WAIT:
  mbarrier.try_wait.parity.shared.b64 %p2, [bar], 0;
  @!%p2 bra WAIT;
  mov.u32 %r4, buf;
  shl.b32 %r5, %r1, 2;
  add.u32 %r6, %r4, %r5;
  ld.shared.u32 %r7, [%r6];
  ld.param.u64 %rd3, [out];
  cvta.to.global.u64 %rd3, %rd3;
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd3, %rd4;
  st.global.u32 [%rd5], %r7;
  ret;
}
"""


# A tensor map argument over a .npy buffer (docs/LaunchManifest.md): the box at (32, 36) of a
# 64 x 40 f32 tensor, rows 40..43 outside it and zero-filled.
def test_tensor_map_argument(tmp):
    (tmp / "tma.ptx").write_text(TMA_KERNEL)
    t = np.arange(40 * 64, dtype=np.float32).reshape(40, 64)
    np.save(tmp / "t.npy", t)
    np.save(tmp / "out.npy", np.zeros(256, np.float32))
    tensormap = {"buffer": "t.npy", "dtype": "float32", "dims": [64, 40], "strides": [256], "box": [32, 8]}
    r = run(tmp, {"ptx": "tma.ptx", "kernel": "box", "grid": [1], "block": [256],
                  "args": [{"tensormap": tensormap}, {"buffer": "out.npy", "output": "res.npy"},
                           {"u32": 32}, {"u32": 36}]})
    assert r.returncode == 0, r.stderr
    want = np.zeros((8, 32), np.float32)
    want[:4] = t[36:40, 32:64]
    assert np.array_equal(np.load(tmp / "out" / "res.npy"), want.ravel())
    tensormap["box"] = [6, 8]  # 24 bytes: no map cuTensorMapEncodeTiled builds
    r = run(tmp, {"ptx": "tma.ptx", "kernel": "box", "grid": [1], "block": [256],
                  "args": [{"tensormap": tensormap}, {"buffer": "out.npy"}, {"u32": 0}, {"u32": 0}]})
    assert r.returncode == 1
    assert "args[0].tensormap: not a tensor map cuTensorMapEncodeTiled would build" in r.stderr
    assert "multiple of 16 bytes, not 24" in r.stderr


# An im2col map (cuTensorMapEncodeIm2col's fields) reads; given to a 2-D copy it is a guest fault.
def test_im2col_tensor_map_argument(tmp):
    (tmp / "tma.ptx").write_text(TMA_KERNEL)
    np.save(tmp / "t.npy", np.zeros((2, 14, 9, 64), np.float16))
    np.save(tmp / "out.npy", np.zeros(256, np.float32))
    tensormap = {"buffer": "t.npy", "dtype": "float16", "dims": [64, 9, 14, 2], "strides": [128, 1152, 16128],
                 "mode": "im2col", "lower_corner": [-1, -1], "upper_corner": [-1, -1], "channels_per_pixel": 8}
    args = [{"tensormap": tensormap}, {"buffer": "out.npy"}, {"u32": 0}, {"u32": 0}]
    r = run(tmp, {"ptx": "tma.ptx", "kernel": "box", "grid": [1], "block": [256], "args": args})
    assert r.returncode == 1 and "args[0].tensormap: missing 'pixels_per_column' (an im2col map)" in r.stderr
    tensormap["pixels_per_column"] = 64
    r = run(tmp, {"ptx": "tma.ptx", "kernel": "box", "grid": [1], "block": [256], "args": args})
    assert r.returncode == 2 and "is .2d but its tensor map has rank 4" in r.stderr, r.stderr


def test_out_dir_and_byte_arguments(tmp):
    np.save(tmp / "o.npy", np.zeros(4, np.uint32))
    r = run(tmp, {"ptx": "k.ptx", "kernel": "bytes", "grid": [1], "block": [1],
                  "args": [{"buffer": "o.npy", "output": "o.npy"}, {"bytes": "0a0b0c0d01020304"},
                           {"f16": "0x3c00"}, {"s8": -2}]}, "--out", str(tmp / "elsewhere"))
    assert r.returncode == 0, r.stderr
    o = np.load(tmp / "elsewhere" / "o.npy")
    assert list(o) == [0x0D0C0B0A, 0x04030201, 0x3C00, 0xFFFFFFFE]


@pytest.mark.parametrize("model,bits", [(None, 0x3F800000), ("sm90", 0x3F800000), ("exact", 0x3F800001)])
def test_tensor_core_model(tmp, model, bits):
    # 1 + 8 * 2^-26: an H100 truncates each product 25 bits below C's exponent (to 0), the exact
    # model sums them (1 + 2^-23, representable).
    np.save(tmp / "d.npy", np.zeros(32, np.uint32))
    manifest = {"ptx": "k.ptx", "kernel": "mma", "grid": [1], "block": [32],
                "args": [{"buffer": "d.npy", "output": "d.npy"}]}
    if model:
        manifest["model"] = model
    r = run(tmp, manifest)
    assert r.returncode == 0, r.stderr
    assert list(np.load(tmp / "out" / "d.npy")) == [bits] * 32


@pytest.mark.parametrize("manifest,message", [
    ({"ptx": "k.ptx", "kernel": "mma", "grid": [1], "block": [32], "model": "sm80",
      "args": [{"u64": 0}]}, 'model: expected "sm90" or "exact", got "sm80" (a string)'),
    ({"kernel": "scale", "grid": [1], "block": [1]}, "missing 'ptx'"),
    ({"ptx": "k.ptx", "kernel": "scale", "grid": [0], "block": [1]}, "grid[0]: expected an integer from 1 to 4294967295, got 0"),
    ({"ptx": "k.ptx", "kernel": "nope", "grid": [1], "block": [1]}, "no kernel named 'nope'"),
    ({"ptx": "k.ptx", "kernel": "scale", "grid": [1], "block": [1], "args": []}, "takes 4 arguments"),
    ({"ptx": "k.ptx", "kernel": "scale", "grid": [1], "block": [1],
      "args": [{"u64": 0}, {"u64": 0}, {"f32": 1}, {"u32": -1}]}, "args[3].u32: expected an integer from 0 to 4294967295, got -1"),
    ({"ptx": "k.ptx", "kernel": "scale", "grid": [1], "block": [1],
      "args": [{"u64": 0}, {"u64": 0}, {"f32": 1}, {"q32": 1}]}, "args[3]: unknown key 'q32'; did you mean 'f32'?"),
    ({"ptx": "missing.ptx", "kernel": "scale", "grid": [1], "block": [1]}, "missing.ptx: cannot open: No such file or directory"),
    ({"ptx": "k.ptx", "kernel": "scale", "grid": [1], "block": [1],
      "args": [{"buffer": "nothere.npy"}]}, "nothere.npy: cannot open"),
])
def test_invalid_manifests_exit_1(tmp, manifest, message):
    r = run(tmp, manifest)
    assert r.returncode == 1
    assert message in r.stderr


def test_invalid_ptx_exits_1_with_diagnostics(tmp):
    (tmp / "bad.ptx").write_text(".version 8.7\n.target sm_90\n.entry k() { add.s32 %r1, ; }\n")
    r = run(tmp, {"ptx": "bad.ptx", "kernel": "k", "grid": [1], "block": [1]})
    assert r.returncode == 1
    assert "bad.ptx:3:27: error: expected an operand" in r.stderr


def test_guest_fault_exits_2_with_report(tmp):
    np.save(tmp / "in.npy", np.zeros(10, np.float32))
    np.save(tmp / "out.npy", np.zeros(10, np.float32))
    r = run(tmp, {"ptx": "k.ptx", "kernel": "scale", "grid": [1], "block": [32],
                  "args": [{"buffer": "out.npy"}, {"buffer": "in.npy"}, {"f32": 1}, {"u32": 32}]})
    assert r.returncode == 2
    assert "kernel 'scale' stopped: out-of-bounds 4-byte global access" in r.stderr
    assert "CTA (0, 0, 0), warp 0, lane 10" in r.stderr
    assert "ld.global.f32 %f2, [%rd4];" in r.stderr


# --check (docs/Sanitizer.md): the same fault as a memcheck report, in the text and the JSON
# report, naming the allocation; a clean launch with every check writes its outputs and exits 0.
def test_check_reports_and_exit_status(tmp):
    np.save(tmp / "in.npy", np.arange(10, dtype=np.float32))
    np.save(tmp / "out.npy", np.zeros(10, np.float32))
    args = [{"buffer": "out.npy", "output": "o.npy"}, {"buffer": "in.npy"}, {"f32": 2}]
    launch = {"ptx": "k.ptx", "kernel": "scale", "grid": [1], "block": [32]}
    r = run(tmp, {**launch, "args": args + [{"u32": 11}]}, "--check=memcheck", f"--check-report={tmp / 'r.json'}")
    assert r.returncode == 2
    assert "========= memcheck: out-of-bounds access in kernel 'scale', CTA (0, 0, 0), 4 bytes of global memory" in r.stderr
    assert "0 bytes past the end of the 40-byte allocation" in r.stderr
    assert "========= ERROR SUMMARY: 1 error" in r.stderr
    report = json.loads((tmp / "r.json").read_text())
    assert report["errors"] == 1
    [found] = report["reports"]
    assert (found["check"], found["kind"], found["site"]["thread"]) == ("memcheck", "out-of-bounds access", [10, 0, 0])
    assert found["access"]["space"] == "global" and found["access"]["size"] == 4
    r = run(tmp, {**launch, "args": args + [{"u32": 10}]}, "--check", "all")
    assert r.returncode == 0, r.stderr
    assert "========= ERROR SUMMARY: 0 errors" in r.stderr
    assert np.array_equal(np.load(tmp / "out" / "o.npy"), np.arange(10, dtype=np.float32) * 2)


@pytest.mark.parametrize("flags, message", [
    (["--check=memcheck,bogus"], "--check: unknown check 'bogus'"),
    (["--check-report=r.json"], "--check-report needs --check"),
])
def test_check_options_are_validated(tmp, flags, message):
    r = run(tmp, {"ptx": "k.ptx", "kernel": "mma", "grid": [1], "block": [32], "args": [{"buffer": "out.npy"}]}, *flags)
    assert r.returncode == 1
    assert message in r.stderr




# A texture and a surface argument (docs/LaunchManifest.md): linear filtering between the texels
# of row 0 at x = i (x - 0.5 lands halfway between texels i - 1 and i, clamped at 0), written to
# `out` and onto the surface's diagonal.
def test_texture_and_surface_arguments(tmp):
    (tmp / "tex.ptx").write_text((pathlib.Path(__file__).parent / "texture_sample.ptx").read_text())
    np.save(tmp / "img.npy", np.array([[0, 2, 4, 6], [8, 10, 12, 14]], np.float32))
    np.save(tmp / "surf.npy", np.zeros((4, 4), np.float32))
    np.save(tmp / "out.npy", np.zeros(4, np.float32))
    r = run(tmp, {"ptx": "tex.ptx", "kernel": "sample", "grid": [1], "block": [4],
                  "args": [{"texture": {"buffer": "img.npy", "filter": "linear", "address_mode": ["clamp"]}},
                           {"surface": {"buffer": "surf.npy"}, "output": "surf.npy"},
                           {"buffer": "out.npy", "output": "out.npy"}]})
    assert r.returncode == 0, r.stderr
    want = np.array([0, 1, 3, 5], np.float32)
    assert np.array_equal(np.load(tmp / "out" / "out.npy"), want)
    assert np.array_equal(np.load(tmp / "out" / "surf.npy"), np.diag(want))
    r = run(tmp, {"ptx": "tex.ptx", "kernel": "sample", "grid": [1], "block": [4],
                  "args": [{"texture": {"buffer": "img.npy", "channels": 2}},
                           {"surface": {"buffer": "surf.npy"}}, {"buffer": "out.npy"}]})
    assert r.returncode == 1 and "args[0].texture: the array's last axis must hold the 2 channels" in r.stderr
    # The sampler flags: exact_trilinear (CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION) takes a boolean.
    args = lambda flag: [{"texture": {"buffer": "img.npy", "filter": "linear", "address_mode": ["clamp"],
                                      "max_anisotropy": 16, "exact_trilinear": flag}},
                         {"surface": {"buffer": "surf.npy"}}, {"buffer": "out.npy", "output": "out.npy"}]
    r = run(tmp, {"ptx": "tex.ptx", "kernel": "sample", "grid": [1], "block": [4], "args": args(True)})
    assert r.returncode == 0, r.stderr
    assert np.array_equal(np.load(tmp / "out" / "out.npy"), want)
    r = run(tmp, {"ptx": "tex.ptx", "kernel": "sample", "grid": [1], "block": [4], "args": args("yes")})
    assert r.returncode == 1 and "args[0].texture.exact_trilinear: expected true or false" in r.stderr
