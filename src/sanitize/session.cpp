#include "sanitize/session.h"

#include <algorithm>

#include "isa/family.h"

namespace ptxvm::sanitize {
namespace {

bool reaches_tcgen05(const program::Program& program, const program::Function& kernel) {
  return std::any_of(program.ops.begin(), program.ops.end(), [&](const program::Op& op) {
    return op.family && op.family->mnemonic.rfind("tcgen05", 0) == 0 &&
           std::binary_search(kernel.reached.begin(), kernel.reached.end(), op.function);
  });
}

}  // namespace

Session::Session(const Checks& enabled, const program::Program& program, const program::Function& kernel,
                 const uint32_t (&block)[3])
    : checks(enabled),
      tcgen05_order(enabled.tcgen05 && reaches_tcgen05(program, kernel)),
      program_(program),
      kernel_(kernel.name),
      block_{block[0], block[1], block[2]} {
  traits_.reserve(program.ops.size());
  for (const program::Op& op : program.ops) traits_.push_back(traits_of(op));
}

CheckSite Session::site(const uint32_t (&cta)[3], uint32_t thread, uint32_t pc) const {
  CheckSite s;
  for (int i = 0; i < 3; ++i) s.cta[i] = cta[i];
  s.thread[0] = thread % block_[0];
  s.thread[1] = thread / block_[0] % block_[1];
  s.thread[2] = thread / (block_[0] * block_[1]);
  s.warp = thread / 32;
  s.lane = thread % 32;
  s.pc = pc;
  if (pc < program_.ops.size()) {
    const program::Op& op = program_.ops[pc];
    s.line = op.line;
    s.instruction = op.text;
    if (op.source_line) {
      auto file = program_.files.find(op.source_file);
      s.source_file = file != program_.files.end() ? file->second : "file " + std::to_string(op.source_file);
      s.source_line = op.source_line;
    }
  }
  return s;
}

void Session::report(CheckReport r) {
  r.kernel = kernel_;
  std::lock_guard lock(mutex_);
  auto key = std::make_tuple(r.check, r.kind, r.site.pc, r.other ? r.other->pc : UINT32_MAX);
  if (auto it = index_.find(key); it != index_.end()) {
    ++reports_[it->second].count;
    return;
  }
  if (reports_.size() >= kMostReports) return;
  index_.emplace(key, reports_.size());
  reports_.push_back(std::move(r));
}

bool Session::reported(const std::string& check, uint32_t pc) const {
  std::lock_guard lock(mutex_);
  for (const CheckReport& r : reports_)
    if (r.check == check && r.site.pc == pc) return true;
  return false;
}

std::vector<CheckReport> Session::reports() const {
  std::lock_guard lock(mutex_);
  return reports_;
}

}  // namespace ptxvm::sanitize
