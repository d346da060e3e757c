// cudaGetErrorName and cudaGetErrorString give NVIDIA's names and texts, an unknown code
// "unrecognized error code" to both (recorded from libcudart.so.13 on an H200,
// tests/hw/driver/attributes/h200.txt).
#include <cstring>

#include <cuda_runtime.h>

#include "check.h"

struct Known {
  int code;
  const char* name;
  const char* text;
};

int main() {
  const Known known[] = {
      {0, "cudaSuccess", "no error"},
      {1, "cudaErrorInvalidValue", "invalid argument"},
      {2, "cudaErrorMemoryAllocation", "out of memory"},
      {6, "cudaErrorProfilerNotInitialized", "profiler not initialized: call cudaProfilerInitialize()"},
      {9, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
      {13, "cudaErrorInvalidSymbol", "invalid device symbol"},
      {17, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
      {35, "cudaErrorInsufficientDriver", "CUDA driver version is insufficient for CUDA runtime version"},
      {46, "cudaErrorDevicesUnavailable", "CUDA-capable device(s) is/are busy or unavailable"},
      {52, "cudaErrorMissingConfiguration", "__global__ function call is not configured"},
      {98, "cudaErrorInvalidDeviceFunction", "invalid device function"},
      {100, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
      {101, "cudaErrorInvalidDevice", "invalid device ordinal"},
      {201, "cudaErrorDeviceUninitialized", "invalid device context"},
      {209, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
      {222, "cudaErrorUnsupportedPtxVersion", "the provided PTX was compiled with an unsupported toolchain."},
      {300, "cudaErrorInvalidSource", "device kernel image is invalid"},
      {400, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
      {401, "cudaErrorIllegalState", "the operation cannot be performed in the present state"},
      {500, "cudaErrorSymbolNotFound", "named symbol not found"},
      {600, "cudaErrorNotReady", "device not ready"},
      {700, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
      {701, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
      {710, "cudaErrorAssert", "device-side assert triggered"},
      {719, "cudaErrorLaunchFailure", "unspecified launch failure"},
      {720, "cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch"},
      {801, "cudaErrorNotSupported", "operation not supported"},
      {803, "cudaErrorSystemDriverMismatch", "system has unsupported display driver / cuda driver combination"},
      {900, "cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing"},
      {901, "cudaErrorStreamCaptureInvalidated", "operation failed due to a previous error during capture"},
      {910, "cudaErrorGraphExecUpdateFailure",
       "the graph update was not performed because it included changes which violated constraints specific to "
       "instantiated graph update"},
      {999, "cudaErrorUnknown", "unknown error"},
      // codes driver_types.h does not name
      {10, "unrecognized error code", "unrecognized error code"},
      {40, "unrecognized error code", "unrecognized error code"},
      {250, "unrecognized error code", "unrecognized error code"},
      {777, "unrecognized error code", "unrecognized error code"},
  };
  for (const Known& k : known) {
    const char* name = cudaGetErrorName(static_cast<cudaError_t>(k.code));
    const char* text = cudaGetErrorString(static_cast<cudaError_t>(k.code));
    if (!name || !text || std::strcmp(name, k.name) || std::strcmp(text, k.text)) {
      std::printf("FAIL code %d: \"%s\" \"%s\", expected \"%s\" \"%s\"\n", k.code, name ? name : "(null)",
                  text ? text : "(null)", k.name, k.text);
      return 1;
    }
  }
  return pass();
}
