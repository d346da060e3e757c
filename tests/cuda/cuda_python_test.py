"""cuda-python (cuda.bindings.driver) over ptxvm's libcuda.so.1: load PTX, launch, copy back.
CTest runs it with LD_LIBRARY_PATH=build/cuda; exit 77 (skipped) without cuda-bindings."""
import ctypes
import sys

import numpy as np

try:
    from cuda.bindings import driver as cu
except ImportError as e:
    print(f"skipped: cuda-bindings is not installed ({e})")
    sys.exit(77)

PTX = b"""
.version 8.0
.target sm_90
.address_size 64
.visible .entry scale(.param .u64 x, .param .f32 a, .param .u32 n)
{
  .reg .pred %p;
  .reg .b32 %r<4>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [x];
  ld.param.f32 %f1, [a];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r2, %r2, %r3, %tid.x;
  setp.ge.u32 %p, %r2, %r1;
  @%p ret;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.f32 %f2, [%rd3];
  mul.f32 %f2, %f2, %f1;
  st.global.f32 [%rd3], %f2;
  ret;
}
"""


def call(result):
    """The values of a cuda.bindings call, after checking its CUresult."""
    err, *values = result if isinstance(result, tuple) else (result,)
    assert err == cu.CUresult.CUDA_SUCCESS, err
    return values[0] if len(values) == 1 else values


call(cu.cuInit(0))
device = call(cu.cuDeviceGet(0))
assert call(cu.cuDeviceGetAttribute(cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device)) >= 7
context = call(cu.cuDevicePrimaryCtxRetain(device))
call(cu.cuCtxSetCurrent(context))
module = call(cu.cuModuleLoadData(PTX))
kernel = call(cu.cuModuleGetFunction(module, b"scale"))

n = 1000
x = np.arange(n, dtype=np.float32)
buffer = call(cu.cuMemAlloc(x.nbytes))
call(cu.cuMemcpyHtoD(buffer, x.ctypes.data, x.nbytes))
values = [ctypes.c_uint64(int(buffer)), ctypes.c_float(2.5), ctypes.c_uint32(n)]
args = (ctypes.c_void_p * 3)(*[ctypes.addressof(v) for v in values])
stream = call(cu.cuStreamCreate(0))
call(cu.cuLaunchKernel(kernel, (n + 255) // 256, 1, 1, 256, 1, 1, 0, stream, ctypes.addressof(args), 0))
call(cu.cuStreamSynchronize(stream))
y = np.empty_like(x)
call(cu.cuMemcpyDtoH(y.ctypes.data, buffer, x.nbytes))
assert (y == x * np.float32(2.5)).all(), y[:8]
call(cu.cuMemFree(buffer))
call(cu.cuStreamDestroy(stream))
print("PASS")
