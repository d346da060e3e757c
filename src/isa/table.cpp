// The instruction table, assembled from the group files.
#include "isa/table.h"

#include <algorithm>
#include <map>

#include "isa/rows.h"

namespace ptxvm::isa {

const std::vector<Family>& families() {
  static const std::vector<Family> all = [] {
    std::vector<Family> out;
    for (auto group :
         {rows::integer, rows::floating, rows::half, rows::compare, rows::logic,
          rows::data_movement, rows::texture, rows::control, rows::sync, rows::warp_mma,
          rows::wgmma, rows::tcgen05, rows::stack, rows::video, rows::misc}) {
      for (const Row& r : group()) {
        out.push_back(build_family(r));
        out.back().id = static_cast<uint16_t>(out.size() - 1);
      }
    }
    return out;
  }();
  return all;
}

namespace {
const std::map<std::string, std::vector<const Family*>, std::less<>>& by_head() {
  static const auto index = [] {
    std::map<std::string, std::vector<const Family*>, std::less<>> m;
    for (const Family& f : families()) m[f.head].push_back(&f);
    for (auto& [head, list] : m)
      std::stable_sort(list.begin(), list.end(), [](const Family* a, const Family* b) {
        return a->fixed.size() > b->fixed.size();
      });
    return m;
  }();
  return index;
}
} // namespace

const std::vector<const Family*>& families_for(std::string_view opcode) {
  static const std::vector<const Family*> none;
  auto it = by_head().find(opcode);
  return it == by_head().end() ? none : it->second;
}

const std::vector<std::string>& heads() {
  static const std::vector<std::string> list = [] {
    std::vector<std::string> v;
    for (const auto& [h, _] : by_head()) v.push_back(h);
    return v;
  }();
  return list;
}

} // namespace ptxvm::isa
