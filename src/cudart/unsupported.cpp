// Runtime API functions ptxvm's runtime does not implement: each returns cudaErrorNotSupported
// and names itself on stderr once. The build defines every function of CUDA 13's libcudart.so.13
// (symbols.txt) as a weak one calling this; the implemented ones replace theirs.
#include <cstdio>
#include <mutex>
#include <set>
#include <string>

#include "runtime.h"

namespace ptxvm::cudart {

int unsupported(const char* name) {
  static std::mutex mutex;
  static std::set<std::string> named;
  {
    std::lock_guard lock(mutex);
    if (named.insert(name).second)
      std::fprintf(stderr, "ptxvm libcudart: %s is not supported; it returns cudaErrorNotSupported\n", name);
  }
  return fail(cudaErrorNotSupported);
}

}  // namespace ptxvm::cudart
