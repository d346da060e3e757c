// The executable form of a module: flat decoded ops with resolved operands and a handler chosen
// per (family, qualifiers) at load time (DESIGN.md: the wasm3 lesson). Lowering (src/lower)
// writes it; the engine (src/exec) and the semantics (src/sem, src/units) read it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "isa/family.h"
#include "isa/special_registers.h"
#include "mem/memory.h"

namespace ptxvm::exec {
class Warp;
}

namespace ptxvm::program {

inline constexpr uint32_t kNoReg = UINT32_MAX;

enum class ArgKind : uint8_t {
  None,
  Reg,      // `reg`: a 64-bit slot per lane
  Pred,     // `reg`: a predicate register (bit per lane); `negated` for !p
  Imm,      // `imm`: bits already in the operand's type
  Special,  // `reg`: isa::SpecialReg id, `component` 0..3 for .x .y .z .w
  Address,  // [`reg` + `imm`] in `space`; `reg` is kNoReg for a constant address
  Vector,   // `elems`
  Sink,     // _
  Target,   // `reg`: op index of a label
  Function, // `reg`: function index (call targets, function addresses)
};

struct Arg {
  ArgKind kind = ArgKind::None;
  bool negated = false;
  uint8_t component = 0;
  mem::Space space = mem::Space::Generic;
  uint32_t reg = kNoReg;
  uint64_t imm = 0;
  // An Address whose register is 32 bits wide: [reg + imm] wraps at 2^32, as the hardware's
  // 32-bit address arithmetic does (libdevice's sin/cos index their local table as %SPL - k + 24).
  bool narrow = false;
  std::vector<Arg> elems;
};

// Calls f(slot) for every register slot that `a` names: a register, an address's base register,
// and those of a vector's elements.
template <typename F>
void for_each_slot(const Arg& a, F&& f) {
  if (a.kind == ArgKind::Reg || (a.kind == ArgKind::Address && a.reg != kNoReg)) f(a.reg);
  for (const Arg& e : a.elems) for_each_slot(e, f);
}

struct Op;
// What ptxas fuses an op with (lower/contraction.h): for an add or sub, the floating-point
// multiplication whose only use it is, computed as one fused multiply-add; for a neg or abs, the
// select that reads it.
enum class Fused : uint8_t {
  None,
  Mul,        // a mul (§9.7.3.5, §9.7.4.3)
  DivApprox,  // div.approx.f32, whose last step multiplies by the reciprocal (§9.7.3.8)
  DivFull,    // div.full.f32, likewise
  Select,     // on a neg or abs .f32 that only a selp reads: ptxas folds it into the select's
              // operand, a bare change of the sign bit (a NaN keeps its payload)
  Constant,   // on a division by an immediate or an .approx function of one: ptxas computes the
              // reciprocal or the function at compile time (sem/float.cpp)
};

// A semantic body: runs `op` for the lanes of `mask` (guard already applied).
using Handler = void (*)(exec::Warp& w, const Op& op, uint32_t mask);

struct Op {
  Handler fn = nullptr;
  const isa::Family* family = nullptr;
  isa::Binding binding;     // qualifier values, for handlers that read them at run time
  std::vector<Arg> args;
  uint32_t guard = kNoReg;  // predicate register, or kNoReg
  bool guard_negated = false;
  // The handler may set lane PCs (bra, brx.idx, call, ret: sem/control.cpp). Other handlers
  // leave them alone or park lanes (which the engine sees in the warp's masks); the engine's
  // converged path relies on it (engine.cpp run_warp).
  bool jumps = false;
  // The handler sends every lane of its mask to the Target args[0] (bra), so that when all the
  // group runs it the engine knows where the group stands next.
  bool branches = false;
  // Bit i: the handler may read the registers of args[i] in lanes other than those running it,
  // which need not have written them (shfl.sync's source, §9.7.9.6; every fragment of a matrix
  // instruction, §9.7.14): its selector sets it, so that lowering zeroes them (lower/zeroed_slots.h).
  uint32_t cross_lane = 0;
  // A .shared::cta (or plain .shared) ld, st, atom or red: an address in another CTA's shared
  // memory is undefined (§5.1.7), and the H100 stops the kernel (tests/hw/cluster), as
  // exec::Warp::access does.
  bool cta_window = false;
  uint32_t function = 0;    // index into Program::functions
  uint32_t line = 0;        // PTX source line
  uint32_t source_file = 0, source_line = 0;  // the .loc before it (§11.5.3): .file index and line; 0: none
  uint64_t aux = 0;         // handler-specific, set by its selector
  uint64_t aux2 = 0;
  // Not None: this add or sub computes one rounding of the product of the multiplication it is
  // fused with and its other operand; args are then d, a, b, c with the multiplication's a and b,
  // args[1] negated for c - a*b and args[3] negated for a*b - c (sem/fused.h).
  Fused fused = Fused::None;
  std::string text;         // canonical PTX of the instruction, for reports
};

struct Param {
  std::string name;
  uint32_t offset = 0;  // in the kernel parameter buffer / the callee's argument frame
  uint32_t size = 0;
  uint32_t align = 1;
};

struct Function {
  std::string name;
  bool is_entry = false;
  bool defined = false;
  uint32_t entry = 0;  // first op
  uint32_t end = 0;    // one past the last op
  std::vector<Param> params;
  std::vector<Param> returns;
  uint32_t param_bytes = 0;
  uint32_t reg_base = 0, reg_count = 0;    // register slots this function's body uses
  uint32_t pred_base = 0, pred_count = 0;
  uint32_t max_ntid[3] = {0, 0, 0};         // .maxntid / .reqntid, 0 when absent
  bool req_ntid = false;                    // max_ntid came from .reqntid (an exact block)
  uint32_t min_ctas_per_sm = 0;             // .minnctapersm, 0 when absent
  // A kernel's static shared memory (its variables and those of the functions it reaches, §5.1.7,
  // laid out as ptxas does), and per shared variable it reaches (dynamic ones after the static
  // bytes) the register that holds its address and its offset in user shared memory: a
  // reference to a variable is [its register + offset], and the address carries the CTA's rank
  // (mem::cluster_shared_address), so the engine fills those registers per CTA.
  uint32_t shared_bytes = 0;
  std::vector<std::pair<uint32_t, uint32_t>> shared_vars;
  uint32_t req_cluster[3] = {0, 0, 0};      // .reqnctapercluster, 0 when absent
  uint32_t max_cluster_rank = 0;            // .maxclusterrank, 0 when absent
  bool explicit_cluster = false;            // .explicitcluster: launched with a cluster shape
  // A kernel's register slots that a thread may read before it writes them, as (first, count)
  // runs, with every slot of the device functions: what a CTA must zero (lower.cpp
  // zeroed_slots). Registers start at 0, so that a read of one never written is deterministic.
  std::vector<std::pair<uint32_t, uint32_t>> zeroed_slots;
  // A kernel's functions: itself and the device functions it may call, sorted (every function of
  // the module when it makes an indirect call).
  std::vector<uint32_t> reached;
  // A kernel's local memory per thread as the driver reports it (CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES):
  // its own .local variables and its callees' along the deepest call path (lower.cpp stack_bytes).
  uint32_t local_size = 0;
};

// A module-scope .global or .const variable (§5.1.3, §5.1.4): its global address, or its offset
// in the constant bank, and its size.
struct Variable {
  mem::Space space;
  uint64_t address;
  uint64_t size;
};

struct Program {
  std::vector<Op> ops;
  std::vector<Function> functions;
  std::unordered_map<std::string, uint32_t> function_index;
  uint32_t reg_slots = 0;    // 64-bit register slots per lane
  uint32_t pred_regs = 0;
  uint32_t local_bytes = 0;  // per-thread local memory (all functions' .local and .param frames)
  // What lies in [0, local_bytes): each .local variable and call-frame parameter, by offset, and
  // the function it belongs to (-1: the module): memcheck holds a local access to one object of a
  // function the kernel reaches (exec::Warp::access_checked).
  struct LocalObject {
    uint32_t offset, size;
    std::string name;
    int32_t function;
  };
  std::vector<LocalObject> local_objects;
  mem::Buffer constants;     // the module's constant bank, initialised
  std::unordered_map<std::string, Variable> variables;  // module-scope .global and .const, by name
  std::string source_name;
  std::unordered_map<uint32_t, std::string> files;  // .file index -> path (§11.5.2)
  std::string target;        // the module's `.target` chip, `sm_90a`
  const Function* find(const std::string& name) const {
    auto it = function_index.find(name);
    return it == function_index.end() ? nullptr : &functions[it->second];
  }
};

}  // namespace ptxvm::program
