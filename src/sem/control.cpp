// Control flow, PTX §9.7.12 (001_23fdd5978b24a3ed.txt): bra, brx.idx, call, ret, exit, and the
// CUDA runtime's device-side vprintf, __assertfail, malloc, free and cudaGraphSetConditional, which
// PTX reaches through call.
#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "exec/engine.h"
#include "exec/warp.h"
#include "sem/dispatch.h"
#include "sem/graph_conditional.h"
#include "program/registry.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using exec::for_lanes;
using program::Arg;
using program::ArgKind;
using program::Op;
using mem::GuestFault;
using mem::Space;

constexpr uint64_t kFunctionBase = 0x0000'7a00'0000'0000ull;
// Nested calls per thread before a stack-overflow report.
constexpr size_t kMaxCallDepth = 4096;

void bra(Warp& w, const Op& op, uint32_t m) {
  uint32_t target = op.args[0].reg;
  for_lanes(m, [&](int l) { w.pc[l] = target; });
}

// brx.idx index, targets: an index past the list is undefined behaviour, reported (§9.7.12.4).
void brx_idx(Warp& w, const Op& op, uint32_t m) {
  const Arg& list = op.args[1];
  for_lanes(m, [&](int l) {
    uint32_t i = w.get<uint32_t>(op.args[0], l);
    if (i >= list.elems.size()) {
      w.fault_lane = l;
      throw GuestFault{GuestFault::Kind::Invalid, Space::Generic, i, 0,
                       "brx.idx index " + std::to_string(i) + " is past its " +
                           std::to_string(list.elems.size()) + " targets"};
    }
    w.pc[l] = list.elems[i].reg;
  });
}

void exit_lanes(Warp& w, uint32_t m) {
  w.exited |= m;
  w.cta->exited_threads += exec::lane_count(m);
  w.cta->units.exited(w, m);  // their async operations land; barriers count them as arrived
  w.cta->cluster->units.exited(w, m);
}

void exit_op(Warp& w, const Op&, uint32_t m) { exit_lanes(w, m); }

// ---- device-side printf (CUDA's vprintf(format, args)) ----
std::string read_string(Warp& w, uint64_t address, int lane) {
  std::string s;
  for (size_t i = 0; i < 65536; ++i) {
    char c = static_cast<char>(*w.access(Space::Generic, address + i, 1, lane));
    if (!c) return s;
    s += c;
  }
  return s;
}

// Formats like the device printf: arguments are packed in the buffer, each aligned to its size;
// floats arrive as doubles.
std::string format_printf(Warp& w, const std::string& fmt, uint64_t args, int lane) {
  std::string out;
  uint64_t cursor = 0;
  auto next = [&](uint32_t size) {
    cursor = (cursor + size - 1) / size * size;
    uint64_t v = 0;
    std::memcpy(&v, w.access(Space::Generic, args + cursor, size, lane), size);
    cursor += size;
    return v;
  };
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out += fmt[i];
      continue;
    }
    size_t j = i + 1;
    while (j < fmt.size() && std::strchr("-+ #0123456789.*", fmt[j])) ++j;
    std::string length;
    while (j < fmt.size() && std::strchr("hlLqjzt", fmt[j])) length += fmt[j++];
    if (j >= fmt.size()) break;
    char conv = fmt[j];
    std::string flags = fmt.substr(i, j - i - length.size());
    char buf[512];
    switch (conv) {
    case '%': out += '%'; break;
    case 'd': case 'i': {
      bool wide = length.find('l') != std::string::npos;
      int64_t v = wide ? static_cast<int64_t>(next(8)) : static_cast<int32_t>(next(4));
      snprintf(buf, sizeof buf, (flags + PRId64).c_str(), v);
      out += buf;
      break;
    }
    case 'u': case 'x': case 'X': case 'o': case 'c': {
      bool wide = length.find('l') != std::string::npos;
      uint64_t v = wide ? next(8) : static_cast<uint32_t>(next(4));
      if (conv == 'c') snprintf(buf, sizeof buf, (flags + "c").c_str(), static_cast<int>(v));
      else snprintf(buf, sizeof buf, (flags + (conv == 'u' ? PRIu64 : conv == 'x' ? PRIx64 : conv == 'X' ? PRIX64 : PRIo64)).c_str(), v);
      out += buf;
      break;
    }
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
      double d = std::bit_cast<double>(next(8));
      snprintf(buf, sizeof buf, (flags + conv).c_str(), d);
      out += buf;
      break;
    }
    case 's': {  // width and precision apply as in C (`%10s`, `%-6.3s`)
      std::string str = read_string(w, next(8), lane);
      int n = snprintf(nullptr, 0, (flags + "s").c_str(), str.c_str());
      std::string formatted(static_cast<size_t>(std::max(n, 0)) + 1, '\0');
      snprintf(formatted.data(), formatted.size(), (flags + "s").c_str(), str.c_str());
      formatted.pop_back();
      out += formatted;
      break;
    }
    case 'p': snprintf(buf, sizeof buf, "0x%" PRIx64, next(8)); out += buf; break;
    default: out += fmt.substr(i, j - i + 1); break;
    }
    i = j;
  }
  return out;
}

// ---- call and ret (§7 ABI: arguments and results are copied through .param variables) ----
struct CallShape {
  const Arg* results = nullptr;
  const Arg* callee = nullptr;
  const Arg* params = nullptr;
};

CallShape shape(const Op& op) {
  CallShape s;
  size_t i = 0;
  if (op.args[0].kind == ArgKind::Vector) s.results = &op.args[i++];
  s.callee = &op.args[i++];
  if (i < op.args.size() && op.args[i].kind == ArgKind::Vector) s.params = &op.args[i];
  return s;
}

// Copies `size` bytes of an argument into the thread's frame at `offset`.
void put_argument(Warp& w, const Arg& a, uint32_t offset, uint32_t size, int lane) {
  // By-value copies of the ABI (§7) move whole parameters: only bounds are checked.
  uint8_t* dst = w.access(Space::Local, offset, size, lane, false);
  if (a.kind == ArgKind::Imm && a.space == Space::Local) {  // a .param variable of the caller
    std::memmove(dst, w.access(Space::Local, a.imm, size, lane, false), size);
  } else {
    uint64_t v = w.get<uint64_t>(a, lane);
    std::memcpy(dst, &v, std::min<uint32_t>(size, 8));
  }
}

void builtin(Warp& w, const std::string& name, const CallShape& s, int lane) {
  // Each parameter read with its declared size: vprintf(.b64 format, .b64 args), malloc(.b64
  // size), free(.b64 pointer) and the .b64 ones of __assertfail through `arg`, the .b32 ones
  // through `arg32` (a wider read would run past the parameter, which memcheck reports).
  auto arg = [&](size_t i) -> uint64_t {  // a .b64 parameter
    const Arg& a = s.params->elems.at(i);
    if (a.kind == ArgKind::Imm && a.space == Space::Local) return w.load<uint64_t>(Space::Local, a.imm, lane);
    return w.get<uint64_t>(a, lane);
  };
  auto arg32 = [&](size_t i) -> uint32_t {  // a .b32 parameter: its 4 bytes only
    const Arg& a = s.params->elems.at(i);
    if (a.kind == ArgKind::Imm && a.space == Space::Local) return w.load<uint32_t>(Space::Local, a.imm, lane);
    return w.get<uint32_t>(a, lane);
  };
  if (name == "vprintf") {
    std::string text = format_printf(w, read_string(w, arg(0), lane), arg(1), lane);
    {
      std::lock_guard lock(w.launch->output_mutex);
      if (w.launch->output) *w.launch->output += text;
    }
    if (s.results && !s.results->elems.empty() && s.results->elems[0].space == Space::Local)
      w.store<int32_t>(Space::Local, s.results->elems[0].imm, lane, static_cast<int32_t>(text.size()));
    return;
  }
  // CUDA's device-side heap (mem/device_heap.h): malloc(size) -> pointer, free(pointer)
  if (name == "malloc" || name == "free") {
    if (!w.launch->heap) {
      w.fault_lane = lane;
      throw GuestFault{GuestFault::Kind::Unsupported, Space::Generic, 0, 0, "device-side " + name + " without a heap"};
    }
    if (name == "malloc") {
      const uint64_t block = w.launch->heap->allocate(*w.launch->global, arg(0));
      if (s.results && !s.results->elems.empty() && s.results->elems[0].space == Space::Local)
        w.store<uint64_t>(Space::Local, s.results->elems[0].imm, lane, block);
    } else if (const uint64_t block = arg(0); !w.launch->heap->release(*w.launch->global, block)) {
      w.fault_lane = lane;
      throw GuestFault{GuestFault::Kind::Invalid, Space::Global, block, 0,
                       "free of an address that is no live block of the device-side malloc heap (freed "
                       "twice, or never malloc's)"};
    }
    return;
  }
  if (name == "cudaGraphSetConditional")  // CUDA graphs' conditional nodes (sem/graph_conditional.h)
    return graph_set_conditional(w, arg(0), arg32(1), lane);
  // __assertfail(.param .b64 message, .param .b64 file, .param .b32 line, .param .b64 function,
  // .param .b64 charSize), as nvcc declares it: `line` is 4 bytes, read as such (charSize unused).
  if (name == "__assertfail") {
    std::string msg = read_string(w, arg(0), lane), file = read_string(w, arg(1), lane);
    const uint32_t line = arg32(2);
    std::string func = read_string(w, arg(3), lane);
    w.fault_lane = lane;
    throw GuestFault{GuestFault::Kind::Assert, Space::Generic, 0, 0,
                     file + ":" + std::to_string(line) + ": " + func + ": Assertion `" + msg + "` failed."};
  }
  w.fault_lane = lane;
  throw GuestFault{GuestFault::Kind::Unsupported, Space::Generic, 0, 0,
                   "call of external function '" + name + "', which has no definition"};
}

void call(Warp& w, const Op& op, uint32_t m) {
  const program::Program& p = *w.program;
  CallShape s = shape(op);
  for_lanes(m, [&](int l) {
    uint64_t target = s.callee->kind == ArgKind::Function ? s.callee->reg
                                                          : w.get<uint64_t>(*s.callee, l) - kFunctionBase;
    if (target >= p.functions.size()) {
      w.fault_lane = l;
      char buf[96];
      snprintf(buf, sizeof buf, "indirect call to 0x%llx, which is no function's address",
               static_cast<unsigned long long>(target + kFunctionBase));
      throw GuestFault{GuestFault::Kind::Invalid, Space::Generic, target + kFunctionBase, 0, buf};
    }
    const program::Function& f = p.functions[target];
    if (!f.defined) return builtin(w, f.name, s, l);
    if (w.frames.empty()) w.frames.resize(32);
    if (w.frames[l].size() >= kMaxCallDepth) {  // the GPU's call stack is bounded too
      w.fault_lane = l;
      throw GuestFault{GuestFault::Kind::Invalid, Space::Generic, 0, 0,
                       "call stack overflow: more than " + std::to_string(kMaxCallDepth) +
                           " nested calls (runaway recursion?) calling '" + f.name + "'"};
    }
    exec::CallFrame frame;
    frame.return_pc = w.current_pc + 1;
    frame.function = static_cast<uint32_t>(target);
    frame.caller_function = op.function;
    frame.stack_pointer = w.cta->local[w.first_thread + static_cast<uint32_t>(l)].bytes.size();
    // A recursive call keeps the active instance's registers and frame to restore at ret.
    bool recursive = op.function == target ||
                     std::any_of(w.frames[l].begin(), w.frames[l].end(),
                                 [&](const exec::CallFrame& c) { return c.function == target; });
    if (recursive) {
      for (uint32_t r = 0; r < f.reg_count; ++r) frame.saved.push_back(w.slot(f.reg_base + r, l));
      for (const auto& list : {f.params, f.returns})
        for (const program::Param& prm : list) {
          const uint8_t* b = w.access(Space::Local, prm.offset, prm.size, l, false);
          frame.saved_local.insert(frame.saved_local.end(), b, b + prm.size);
        }
    }
    if (s.params)
      for (size_t i = 0; i < f.params.size() && i < s.params->elems.size(); ++i)
        put_argument(w, s.params->elems[i], f.params[i].offset, f.params[i].size, l);
    if (s.results)
      for (const Arg& r : s.results->elems) frame.copy_back.push_back(static_cast<uint32_t>(r.imm));
    w.frames[l].push_back(std::move(frame));
    w.pc[l] = f.entry;
  });
}

void ret(Warp& w, const Op&, uint32_t m) {
  if (w.frames.empty()) return exit_lanes(w, m);  // no lane is in a call: all leave the kernel
  const program::Program& p = *w.program;
  uint32_t leaving = 0;
  for_lanes(m, [&](int l) {
    if (w.frames.empty() || w.frames[l].empty()) {  // ret from the kernel ends the thread
      leaving |= 1u << l;
      return;
    }
    exec::CallFrame frame = std::move(w.frames[l].back());
    w.frames[l].pop_back();
    const program::Function& f = p.functions[frame.function];
    for (size_t i = 0; i < frame.copy_back.size() && i < f.returns.size(); ++i) {
      const program::Param& r = f.returns[i];
      std::memmove(w.access(Space::Local, frame.copy_back[i], r.size, l, false),
                   w.access(Space::Local, r.offset, r.size, l, false), r.size);
    }
    for (size_t r = 0; r < frame.saved.size(); ++r) w.slot(f.reg_base + static_cast<uint32_t>(r), l) = frame.saved[r];
    size_t at = 0;
    for (const auto& list : {f.params, f.returns})
      for (const program::Param& prm : list) {
        if (at + prm.size > frame.saved_local.size()) break;
        std::memcpy(w.access(Space::Local, prm.offset, prm.size, l, false), frame.saved_local.data() + at, prm.size);
        at += prm.size;
      }
    // §9.7.17.3: memory alloca allocated is released when the function that allocated it
    // returns; the stack pointer goes back to where the call found it (stack.cpp).
    std::vector<uint8_t>& stack = w.cta->local[w.first_thread + static_cast<uint32_t>(l)].bytes;
    if (stack.size() > frame.stack_pointer) stack.resize(frame.stack_pointer);
    w.pc[l] = frame.return_pc;
  });
  if (leaving) exit_lanes(w, leaving);
}

bool select(program::Handler h, Op& op, bool jumps = false) {
  op.fn = h;
  op.jumps = jumps;  // the handler sets lane PCs (program::Op::jumps)
  return true;
}

}  // namespace

const program::Registration registered([](program::Registry& r) {
  r["bra §9.7.12.3"] = [](const isa::Bound&, Op& op, std::string&) {
    op.branches = true;
    return select(&bra, op, true);
  };
  r["brx.idx §9.7.12.4"] = [](const isa::Bound&, Op& op, std::string&) { return select(&brx_idx, op, true); };
  r["call §9.7.12.5"] = [](const isa::Bound&, Op& op, std::string&) { return select(&call, op, true); };
  r["ret §9.7.12.6"] = [](const isa::Bound&, Op& op, std::string&) { return select(&ret, op, true); };
  r["exit §9.7.12.7"] = [](const isa::Bound&, Op& op, std::string&) { return select(&exit_op, op); };
});

}  // namespace ptxvm::sem
