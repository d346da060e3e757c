#include "sem/registry.h"

namespace ptxvm::sem {

Selector find_selector(const isa::Family& family) {
  static const Registry registry = [] {
    Registry r;
    register_integer(r);
    register_logic(r);
    register_compare(r);
    register_float(r);
    register_data(r);
    register_control(r);
    register_sync(r);
    register_extended(r);
    register_video(r);
    register_half(r);
    register_convert(r);
    register_atomic(r);
    register_stack(r);
    register_warp(r);
    register_matrix(r);
    register_async_copy(r);
    register_mbarrier(r);
    return r;
  }();
  auto it = registry.find(family.mnemonic + " §" + family.section);
  return it == registry.end() ? nullptr : it->second;
}

}  // namespace ptxvm::sem
