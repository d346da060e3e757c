"""cuda-python (cuda.bindings.driver) for trace.sh: a context, a PTX module and a launch."""
try:
    import numpy as np
    from cuda.bindings import driver as cu
except ImportError as e:
    print("skip:", e)
    raise SystemExit(77)

PTX = b"""
.version 8.0
.target sm_90
.address_size 64
.visible .entry fill(.param .u64 out, .param .u32 value)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [value];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r2, %tid.x;
    mul.wide.u32 %rd3, %r2, 4;
    add.s64 %rd2, %rd2, %rd3;
    st.global.u32 [%rd2], %r1;
    ret;
}
"""


def ok(result):
    err, *values = result
    assert err == cu.CUresult.CUDA_SUCCESS, err
    return values[0] if len(values) == 1 else values


ok(cu.cuInit(0))
dev = ok(cu.cuDeviceGet(0))
ctx = ok(cu.cuDevicePrimaryCtxRetain(dev))
ok(cu.cuCtxSetCurrent(ctx))
module = ok(cu.cuModuleLoadData(PTX + b"\0"))
fill = ok(cu.cuModuleGetFunction(module, b"fill"))
out = ok(cu.cuMemAlloc(256 * 4))
args = [np.array([int(out)], dtype=np.uint64), np.array([7], dtype=np.uint32)]
params = np.array([a.ctypes.data for a in args], dtype=np.uint64)
ok(cu.cuLaunchKernel(fill, 1, 1, 1, 256, 1, 1, 0, 0, params.ctypes.data, 0))
ok(cu.cuCtxSynchronize())
host = np.zeros(256, dtype=np.uint32)
ok(cu.cuMemcpyDtoH(host.ctypes.data, out, host.nbytes))
assert (host == 7).all()
ok(cu.cuMemFree(out))
ok(cu.cuModuleUnload(module))
ok(cu.cuDevicePrimaryCtxRelease(dev))
print("ok")
