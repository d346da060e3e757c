// Driver API functions ptxvm's driver does not implement: each returns CUDA_ERROR_NOT_SUPPORTED
// and names itself on stderr once. The build defines every function NVIDIA's libcuda.so.1 exports
// (symbols.txt, from tests/hw/driver/libcuda_symbols.txt without the debugger's cudbg* symbols) as
// a weak one calling this, so a program linked against any of them loads, and cuGetProcAddress
// finds them; the implemented ones replace theirs.
#include <cstdio>
#include <mutex>
#include <set>
#include <string>

#include <cuda.h>

namespace ptxvm::cuda {

int unsupported(const char* name) {
  static std::mutex mutex;
  static std::set<std::string> named;
  std::lock_guard lock(mutex);
  if (named.insert(name).second)
    std::fprintf(stderr, "ptxvm libcuda: %s is not supported; it returns CUDA_ERROR_NOT_SUPPORTED\n", name);
  return CUDA_ERROR_NOT_SUPPORTED;
}

}  // namespace ptxvm::cuda
