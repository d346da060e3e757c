"""The ptxvm Python package: modules, launches with arrays and typed scalars, device memory,
errors. Runs against the extension built in-tree (PYTHONPATH=<build>/python)."""
import pathlib
import sys

import numpy as np
import pytest

import ptxvm

SAXPY = r"""
.version 8.0
.target sm_80
.address_size 64
.visible .entry saxpy(.param .u64 x, .param .u64 y, .param .f32 a, .param .u32 n)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<6>;
  .reg .f32 %f<4>;
  .reg .pred %p1;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.u32 %r4, %r1, %r2, %r3;
  ld.param.u32 %r5, [n];
  setp.ge.u32 %p1, %r4, %r5;
  @%p1 bra DONE;
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  ld.global.f32 %f2, [%rd5];
  ld.param.f32 %f3, [a];
  fma.rn.f32 %f2, %f3, %f1, %f2;
  st.global.f32 [%rd5], %f2;
DONE:
  ret;
}
.visible .entry oob(.param .u64 x)
{
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [x];
  add.s64 %rd2, %rd1, 4096;
  st.global.u32 [%rd2], 7;
  ret;
}
.visible .entry hello(.param .s32 v)
{
  .reg .b32 %r1;
  ld.param.s32 %r1, [v];
  ret;
}
"""


def test_saxpy_copies_arrays_in_and_back():
    mod = ptxvm.Module(SAXPY)
    assert mod.kernels() == ["saxpy", "oob", "hello"]
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, dtype=np.float32)
    mod.saxpy(ptxvm.In(x), y, ptxvm.f32(2.0), ptxvm.u32(1000), grid=4, block=256)
    np.testing.assert_array_equal(y, 2 * np.arange(1000, dtype=np.float32) + 1)
    # plain Python scalars take the parameters' sizes
    mod.kernel("saxpy")(x, y, 0.5, 1000, grid=(4,), block=(256, 1, 1))
    np.testing.assert_array_equal(y, 2.5 * np.arange(1000, dtype=np.float32) + 1)


def test_device_memory_stays_between_launches():
    dev = ptxvm.Device()
    mod = dev.load(SAXPY)
    x = dev.to_device(np.full(256, 3, dtype=np.float32))
    y = dev.alloc(256 * 4)  # zeroed
    for _ in range(3):
        mod.saxpy(x, y, ptxvm.f32(1.0), ptxvm.u32(256), grid=1, block=256)
    out = dev.to_host(y, np.empty(256, dtype=np.float32))
    np.testing.assert_array_equal(out, np.full(256, 9, dtype=np.float32))


def test_arrays_are_used_in_place_and_in_gives_a_copy():
    dev = ptxvm.Device()
    mod = dev.load(SAXPY)
    x = np.ones(64, dtype=np.float32)
    mod.saxpy(x, ptxvm.Out(x), ptxvm.f32(4.0), ptxvm.u32(64), grid=1, block=64)  # y = 4x + y, y is x
    np.testing.assert_array_equal(x, np.full(64, 5, dtype=np.float32))
    y = np.zeros(64, dtype=np.float32)
    mod.saxpy(x, ptxvm.In(y), ptxvm.f32(1.0), ptxvm.u32(64), grid=1, block=64)  # writes the copy only
    np.testing.assert_array_equal(y, np.zeros(64, dtype=np.float32))
    adopted = dev.adopt(y)  # the array's own memory, across launches
    assert adopted.address == y.ctypes.data  # at its host address
    mod.saxpy(x, adopted, ptxvm.f32(2.0), ptxvm.u32(64), grid=1, block=64)
    np.testing.assert_array_equal(y, np.full(64, 10, dtype=np.float32))
    adopted.free()
    with pytest.raises(ptxvm.LaunchError, match="read-only"):
        ro = np.zeros(64, dtype=np.float32)
        ro.flags.writeable = False
        mod.saxpy(x, ro, 1.0, 64, grid=1, block=64)


POINTER_CHASE = r"""
.version 8.0
.target sm_80
.address_size 64
.visible .entry chase(.param .u64 ptrs, .param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [ptrs];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u64 %rd5, [%rd4];
  ld.global.u32 %r2, [%rd5];
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd2, %rd6;
  st.global.u32 [%rd7], %r2;
  ret;
}
"""


def test_memory_reached_through_pointers_comes_from_the_resolver(monkeypatch):
    dev = ptxvm.Device()
    mod = dev.load(POINTER_CHASE)
    rows = [np.arange(4, dtype=np.uint32) + 10 * i for i in range(4)]
    # thread i reads element i of row i through a pointer the kernel loads from `ptrs`
    ptrs = np.array([r.ctypes.data + 4 * i for i, r in enumerate(rows)], dtype=np.uint64)
    out = np.zeros(4, dtype=np.uint32)
    with pytest.raises(ptxvm.GuestFault, match="out-of-bounds"):  # no resolver: unknown memory
        mod.chase(ptrs, out, grid=1, block=4)
    asked, adopted = [], []

    def resolver(address):
        asked.append(address)
        for r in rows:
            if r.ctypes.data <= address < r.ctypes.data + r.nbytes:
                adopted.append(dev.adopt(r))
                return adopted[-1].address == r.ctypes.data
        return False

    dev.set_host_memory_resolver(resolver)
    mod.chase(ptrs, out, grid=1, block=4)
    np.testing.assert_array_equal(out, [0, 11, 22, 33])
    assert sorted(asked) == sorted(ptrs.tolist())  # once each: adopted memory is found from then on
    ptrs[3] = rows[3].ctypes.data + rows[3].nbytes + (1 << 20)  # memory the resolver does not vouch for
    for a in adopted:
        a.free()
    with pytest.raises(ptxvm.GuestFault, match="out-of-bounds"):
        mod.chase(ptrs, out, grid=1, block=4)

    def broken(address):
        raise RuntimeError("resolver bug")

    dev.set_host_memory_resolver(broken)  # its exception is reported as unraisable; the access faults
    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: unraisable.append(u.exc_value))
    with pytest.raises(ptxvm.GuestFault):
        mod.chase(ptrs, out, grid=1, block=4)
    assert unraisable and str(unraisable[0]) == "resolver bug"
    dev.set_host_memory_resolver(None)


def test_invalid_ptx_raises_load_error_with_locations():
    with pytest.raises(ptxvm.LoadError) as e:
        ptxvm.Module(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n  bogus.u32 %r1;\n}\n",
                     name="bad.ptx")
    assert "bad.ptx:6:" in e.value.diagnostics


def test_guest_faults_raise_with_the_report():
    mod = ptxvm.Module(SAXPY)
    with pytest.raises(ptxvm.GuestFault) as e:
        mod.oob(np.zeros(16, dtype=np.uint32), grid=1, block=1)
    assert "oob" in e.value.report and "CTA (0, 0, 0)" in e.value.report


RACE = r"""
.version 8.0
.target sm_80
.address_size 64
.visible .entry swap(.param .u64 out)
{
  .shared .align 4 .b8 tile[256];
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, tile;
  add.u32 %r4, %r3, %r2;
  add.u32 %r7, %r1, 1;
  st.shared.u32 [%r4], %r7;
  xor.b32 %r5, %r2, 128;
  add.u32 %r6, %r3, %r5;
  ld.shared.u32 %r7, [%r6];
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  ret;
}
"""


def test_checks_raise_check_error_with_reports():
    mod = ptxvm.Module(RACE, name="race.ptx")
    out = np.zeros(64, np.uint32)
    mod.swap(out, grid=1, block=64)  # unchecked, the race goes unseen
    with pytest.raises(ptxvm.CheckError) as e:
        mod.swap(out, grid=1, block=64, check="racecheck")
    kinds = {(r.check, r.kind, r.line) for r in e.value.reports}
    assert kinds == {("racecheck", "write-after-read hazard", 15), ("racecheck", "read-after-write hazard", 18)}
    assert "race.ptx:18" in str(e.value) and not e.value.fault
    with pytest.raises(ptxvm.CheckError) as e:  # memcheck: the report, and the fault that stopped it
        ptxvm.Module(SAXPY).oob(np.zeros(16, dtype=np.uint32), grid=1, block=1, check="all")
    assert [(r.check, r.kind) for r in e.value.reports] == [("memcheck", "out-of-bounds access")]
    assert "stopped" in e.value.fault
    with pytest.raises(ptxvm.LaunchError, match="unknown check 'racechek'"):
        mod.swap(out, grid=1, block=64, check="racechek")


def test_bad_launches_raise_launch_error():
    mod = ptxvm.Module(SAXPY)
    with pytest.raises(ptxvm.LaunchError, match="takes 4 arguments, 2 given"):
        mod.saxpy(np.zeros(4, np.float32), np.zeros(4, np.float32), grid=1, block=1)
    with pytest.raises(ptxvm.LaunchError, match="is 4 bytes; 8 given"):
        mod.hello(ptxvm.s64(1), grid=1, block=1)
    with pytest.raises(ptxvm.LaunchError, match="no kernel named"):
        mod.kernel("missing")
    with pytest.raises(ptxvm.LaunchError, match="grid takes"):
        mod.hello(1, grid=0, block=1)


def test_dlpack_tensors_are_arrays():
    torch = pytest.importorskip("torch")
    mod = ptxvm.Module(SAXPY)
    x = torch.arange(128, dtype=torch.float32)
    y = torch.zeros(128, dtype=torch.float32)
    mod.saxpy(x, y, 3.0, 128, grid=1, block=128)
    assert torch.equal(y, 3 * torch.arange(128, dtype=torch.float32))


SPIN = r"""
.version 8.0
.target sm_80
.address_size 64
.visible .entry spin(.param .u32 n)
{
  .reg .b32 %r<3>;
  .reg .pred %p1;
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
LOOP:
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra LOOP;
  ret;
}
"""


def test_progress_shows_ctas_on_stderr_for_long_launches(capfd):
    mod = ptxvm.Module(SPIN)
    mod.spin(ptxvm.u32(10), grid=4, block=32, progress=True)  # short: nothing drawn
    assert capfd.readouterr().err == ""
    mod.spin(ptxvm.u32(6_000_000), grid=8, block=32, threads=1, progress=True)
    err = capfd.readouterr().err
    assert "ptxvm: kernel 'spin': " in err and " / 8 CTAs" in err




# A texture and a surface object (PTX §5.3) as kernel arguments: linear filtering halfway between
# the texels of row 0 (clamped at 0), written to `out` and onto the surface's diagonal.
def test_texture_and_surface_objects():
    dev = ptxvm.Device()
    ptx = pathlib.Path(__file__).parents[2] / "tests" / "tools" / "texture_sample.ptx"
    k = dev.load(ptx.read_text()).kernel("sample")
    tex = dev.texture(np.array([[0, 2, 4, 6], [8, 10, 12, 14]], np.float32), filter="linear")
    surf = dev.surface(np.zeros((4, 4), np.float32))
    out = np.zeros(4, np.float32)
    k(tex, surf, ptxvm.Out(out), grid=1, block=4)
    assert np.array_equal(out, [0, 1, 3, 5])
    back = surf.read(np.empty((4, 4), np.float32))
    assert np.array_equal(back, np.diag(out))
    with pytest.raises(ptxvm.LaunchError, match="last axis"):
        dev.texture(np.zeros((2, 4), np.float32), channels=2)
    tex.free()
    surf.free()
