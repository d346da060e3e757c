// Device 0's primary context of the drop-in driver, retained and current: the set-up every driver
// test starts from. Call it through ASSERT_NO_FATAL_FAILURE.
#pragma once

#include <cuda.h>
#include <gtest/gtest.h>

namespace ptxvm::test {

inline void use_primary_context(CUcontext* ctx) {
  ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
  CUdevice dev;
  ASSERT_EQ(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuDevicePrimaryCtxRetain(ctx, dev), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxSetCurrent(*ctx), CUDA_SUCCESS);
}

}  // namespace ptxvm::test
