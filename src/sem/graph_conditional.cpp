// cudaGraphSetConditional (graph_conditional.h): a 32-bit store at the handle's address.
#include "sem/graph_conditional.h"

#include <cinttypes>
#include <cstdio>

#include "exec/warp.h"

namespace ptxvm::sem {

void graph_set_conditional(exec::Warp& w, uint64_t handle, uint32_t value, int lane) {
  try {
    w.store<uint32_t>(mem::Space::Global, handle, lane, value);
  } catch (mem::GuestFault& f) {
    char text[160];
    std::snprintf(text, sizeof text,
                  "cudaGraphSetConditional of handle 0x%" PRIx64
                  ", which is no conditional handle (cudaGraphConditionalHandleCreate) of a live graph",
                  handle);
    f.detail = text;
    throw;
  }
}

}  // namespace ptxvm::sem
