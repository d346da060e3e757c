// gen_corpus DIR: writes the differential corpus of the ISA checker into DIR — small kernels of
// one instruction each, derived from the instruction table (src/isa/*.cpp) — and DIR/manifest.tsv
// with one line per kernel: file, family, section, kind, target, expected (the table's verdict).
//
// For every family: valid forms on several targets; for every rule a form that breaks only that
// rule; for every variant minimum a form that needs it on a target and at a version below it;
// an operand-count mutant and an operand-type mutant. Deterministic: same table, same corpus.
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "isa/fragments.h"
#include "isa/table.h"
#include "isa/types.h"
#include "sample.h"

namespace ptxvm::isa {
namespace {

using testing::Goal;
using testing::solve;
using testing::spelled;
using testing::valid_goals;

constexpr const char* kTargets[] = {"sm_80", "sm_90", "sm_90a", "sm_100a", "sm_100f"};
constexpr Version kVersion{8, 8}; // the newest every corpus target accepts

// Families whose operands the generator cannot form generically (texture and surface references,
// call prototypes, branch tables): generate_module_checks writes them as whole modules.
const std::set<std::string> kNotGenerated = {"tex",     "tld4",   "txq",    "istypep",
                                             "suld.b",  "sust.b", "sust.p", "sured.b",
                                             "sured.p", "suq",    "call",   "brx.idx"};

// The register type that holds a value of instruction type `t`.
std::string reg_type(const std::string& t) {
  if (t == ".bf16" || t == ".e4m3x2" || t == ".e5m2x2" || t == ".e2m3x2" || t == ".e3m2x2" ||
      t == ".ue8m0x2" || t == ".e2m1x4")
    return ".b16";
  if (t == ".e2m1x2") return ".b8";
  if (t == ".bf16x2" || t == ".tf32" || t == ".e4m3x4" || t == ".e5m2x4" || t == ".e2m3x4" ||
      t == ".e3m2x4" || t == ".f16x2" || t == ".u16x2" || t == ".s16x2" || t == ".s4" ||
      t == ".u4" || t == ".b1")
    return ".b32";
  if (t == ".e4m3" || t == ".e5m2" || t == ".e3m2" || t == ".e2m3" || t == ".e2m1") return ".b8";
  if (t == ".f32x2") return ".b64";
  if (t.empty() || t == "*") return ".b32";
  return t;
}

// A type no register of which agrees with `t` (for operand-type mutants).
std::string wrong_type(const std::string& t) {
  auto info = type_info(t);
  if (!info) return ".pred";
  if (info->kind == 'f') return info->bits == 64 ? ".u64" : info->bits == 16 ? ".u16" : ".u32";
  if (info->kind == 'u' || info->kind == 's')
    return info->bits == 64 ? ".f64" : info->bits == 16 ? ".f16" : ".f32";
  if (info->kind == 'p') return ".b32";
  return ".pred";
}

class Kernel {
public:
  std::string reg(const std::string& t) {
    std::string rt = reg_type(t);
    std::string tag = rt.substr(1);
    int n = counts_[rt]++;
    return "%" + tag + "_" + std::to_string(n);
  }
  std::string vec(const std::string& t, int n) {
    std::string s = "{";
    for (int i = 0; i < n; ++i) s += (i ? ", " : "") + reg(t);
    return s + "}";
  }
  // Tensor Memory addresses are 32-bit (000_70a4b524dfe259fa.txt §9.7.16.1.1); others 64-bit.
  std::string addr() { return "[" + reg(tmem ? ".b32" : ".b64") + "]"; }
  bool tmem = false;
  std::string decls() const {
    std::string s;
    for (const auto& [t, n] : counts_)
      s += "  .reg " + t + " %" + t.substr(1) + "_<" + std::to_string(n) + ">;\n";
    return s;
  }

private:
  std::map<std::string, int> counts_;
};

std::string val(const Bound& b, const char* axis) {
  const std::string* v = b.value(axis);
  return v ? *v : std::string();
}

std::string acc_reg(const std::string& t) {
  return t == ".f16" ? ".b32" : t;
}

// Operands of the matrix families, whose fragment sizes follow the shape and types.
std::optional<std::string> matrix_operands(const Bound& b, Kernel& k) {
  const std::string& m = b.family->mnemonic;
  std::optional<std::vector<unsigned>> sizes = fragment_sizes(b);
  auto n = [&](size_t i) { return static_cast<int>(sizes ? (*sizes)[i] : 1); };
  if (m == "mma" || m == "mma.sp" || m == "mma.sp::ordered_metadata") {
    std::string ab = val(b, "atype") == ".f64" ? ".f64" : ".b32";
    std::string s = k.vec(acc_reg(val(b, "dtype")), n(0)) + ", " + k.vec(ab, n(1)) + ", " +
                    k.vec(ab, n(2)) + ", " + k.vec(acc_reg(val(b, "ctype")), n(3));
    if (m != "mma") s += ", " + k.reg(".b32") + ", 0";
    if (b.value("block_scale"))
      s += ", " + k.reg(".b32") + ", {0, 0}, " + k.reg(".b32") + ", {0, 0}";
    return s;
  }
  if (m == "wgmma.mma_async" || m == "wgmma.mma_async.sp") {
    std::string at = val(b, "atype");
    std::string s =
        k.vec(acc_reg(val(b, "dtype")), n(0)) + ", " + k.reg(".b64") + ", " + k.reg(".b64");
    if (m == "wgmma.mma_async.sp") s += ", " + k.reg(".b32") + ", 0";
    s += ", " + k.reg(".pred");
    if (at != ".s8" && at != ".u8" && at != ".b1") s += ", 1, 1";
    if (at == ".f16" || at == ".bf16") s += ", 0, 0";
    return s;
  }
  if (m.rfind("wmma.", 0) == 0) {
    // Register types of the fragments: 32-bit containers for inputs, the accumulator's type.
    auto acc = [&](const std::string& t) { return t == ".f16" ? std::string(".b32") : t; };
    auto in = [&](const std::string& t) {
      return t == ".f64" ? std::string(".f64") : std::string(".b32");
    };
    if (m == "wmma.load") {
      std::string frag = val(b, "frag"), t = val(b, "type");
      return k.vec(frag == ".c" ? acc(t) : in(t), n(0)) + ", " + k.addr();
    }
    if (m == "wmma.store") return k.addr() + ", " + k.vec(acc(val(b, "type")), n(1));
    std::string at = val(b, "atype").empty() ? ".f16" : val(b, "atype");
    return k.vec(acc(val(b, "dtype")), n(0)) + ", " + k.vec(in(at), n(1)) + ", " +
           k.vec(in(at), n(2)) + ", " + k.vec(acc(val(b, "ctype")), n(3));
  }
  if (m.rfind("tcgen05.mma", 0) == 0) {
    bool sp = m.find(".sp") != std::string::npos;
    std::string s = k.addr() + ", " + k.reg(".b64") + ", " + k.reg(".b64") + ", ";
    if (sp) s += k.addr() + ", ";
    s += k.reg(".b32") + ", ";
    if (b.value("block_scale")) s += k.addr() + ", " + k.addr() + ", ";
    return s + k.reg(".pred");
  }
  return std::nullopt;
}

// Operands of the bulk-copy families, whose operand lists follow the direction and qualifiers.
std::optional<std::string> copy_operands(const Bound& b, Kernel& k) {
  const std::string& m = b.family->mnemonic;
  std::string hint = b.value("hint") ? ", " + k.reg(".b64") : "";
  auto coords = [&] {
    int dims = std::atoi(val(b, "dim").c_str() + 1);
    if (b.is("mode", ".tile::gather4") || b.is("mode", ".tile::scatter4")) dims = 5;
    return "[" + k.reg(".b64") + ", " + k.vec(".b32", dims) + "]";
  };
  bool im2col =
      b.is("mode", ".im2col") || b.is("mode", ".im2col::w") || b.is("mode", ".im2col::w::128");
  auto offsets = [&] {
    int dims = std::atoi(val(b, "dim").c_str() + 1);
    if (!im2col) return std::string();
    int n = b.is("mode", ".im2col") ? dims - 2 : 2;
    return ", " + k.vec(".b16", n);
  };
  if (m == "cp.async.bulk") {
    std::string s = k.addr() + ", " + k.addr() + ", " + k.reg(".u32");
    if (!b.is("dst", ".global")) s += ", " + k.addr();
    if (b.value("multicast")) s += ", " + k.reg(".b16");
    s += hint;
    if (b.value("mask")) s += ", " + k.reg(".b16");
    return s;
  }
  if (m == "cp.reduce.async.bulk") {
    std::string s = k.addr() + ", " + k.addr() + ", " + k.reg(".u32");
    if (b.is("dst", ".shared::cluster")) s += ", " + k.addr();
    return s + hint;
  }
  if (m == "cp.async.bulk.tensor") {
    if (b.is("dst", ".global")) return coords() + ", " + k.addr() + hint;
    std::string s = k.addr() + ", " + coords() + ", " + k.addr() + offsets();
    if (b.value("multicast")) s += ", " + k.reg(".b16");
    return s + hint;
  }
  if (m == "cp.reduce.async.bulk.tensor") return coords() + ", " + k.addr() + hint;
  if (m == "cp.async.bulk.prefetch.tensor") return coords() + offsets() + hint;
  return std::nullopt;
}

// Immediates that must lie in a range (§9.7.19.5 setmaxnreg 24..256, §9.7.9.25.3.1 cp-size ...).
std::string immediate(const Family& f) {
  if (f.mnemonic == "setmaxnreg") return "64";
  if (f.mnemonic == "cp.async") return "16";
  if (f.mnemonic == "tensormap.cp_fenceproxy") return "128";
  if (f.mnemonic == "lop3") return "0xf0";
  if (f.mnemonic == "st.bulk") return "0";
  return "1";
}

// The operand list of a bound form; `drop`/`extra` make count mutants, `mistype` a type mutant
// (index of the operand whose register gets a disagreeing type, -1 for none).
std::optional<std::string> operands(const Bound& b, Kernel& k, int mistype = -1) {
  if (auto s = matrix_operands(b, k)) return s;
  if (auto s = copy_operands(b, k)) return s;
  const Family& f = *b.family;
  std::string out;
  int pos = 0;
  std::optional<std::vector<unsigned>> sizes = fragment_sizes(b);
  for (size_t slot = 0; slot < f.operands.size(); ++slot) {
    const Operand& o = f.operands[slot];
    if (o.present_if ? !o.present_if->eval(b.binding) : o.optional) continue;
    std::string t = o.type_axis >= 0  ? val(b, f.axes[o.type_axis].name.c_str())
                    : o.types.empty() ? "*"
                                      : o.types[0];
    if (o.wide && b.is("mode", ".wide"))
      t = t.substr(0, 2) + std::to_string(2 * std::stoi(t.substr(2)));
    if (pos == mistype) {
      if (t == "*" || o.kind == 'm' || o.kind == 'i' || o.kind == 'l') return std::nullopt;
      t = wrong_type(t);
    }
    std::string s;
    switch (o.kind) {
    case 'm':
      s = k.addr();
      break;
    case 'i':
      s = o.values.empty() ? immediate(f) : std::to_string(o.values.front());
      break;
    case 'p':
      s = k.reg(".pred");
      break;
    case 't': // `d|p` where the row's .BoolOp asks for the predicate too (lop3)
      s = k.reg(t) + ((b.value("boolop") && f.mnemonic == "lop3") || f.mnemonic == "elect.sync"
                          ? "|" + k.reg(".pred")
                          : "");
      break;
    case 'l':
      s = "L_end";
      break;
    case '_':
      s = "_";
      break;
    case 'v':
      s = k.vec(t, o.vec ? o.vec : 4);
      break;
    case 'x': {
      const std::string* v = b.value("vec");
      s = v ? k.vec(t, std::stoi(v->substr(2))) : k.reg(t);
      break;
    }
    case 'e':
      if (f.mnemonic == "cvt" && pos == 1 && val(b, "dtype").find("x4") != std::string::npos) {
        s = k.vec(".f32", 4);           // cvt.rs to four narrow values reads {a, b, e, f}
      } else if (f.mnemonic == "mov") { // pack/unpack: a vector of two halves against the whole
        std::string w = val(b, "type");
        int bits = std::stoi(w.substr(2));
        s = pos == 0 ? k.reg(w) : k.vec(".b" + std::to_string(bits / 2), 2);
      } else {
        s = k.reg(t == "*" ? ".b32" : t);
      }
      break;
    case 'a':
      s = f.mnemonic == "tensormap.replace" ? "1"
                                            : k.reg(t); // .elemtype and friends take immediates
      break;
    default:
      s = k.reg(t);
      break;
    }
    out += (pos ? ", " : "") + s;
    ++pos;
  }
  return out;
}

struct Writer {
  std::string dir;
  std::ofstream manifest;
  int n = 0;
  std::set<std::string> seen; // identical kernels are written once

  void write(const Family& f, const std::string& kind, const char* target, Version v,
             const std::string& line, const Kernel& k, bool expected) {
    std::string text = ".version " + v.str() + "\n.target " + target +
                       "\n.address_size 64\n\n"
                       ".visible .entry k()\n{\n" +
                       k.decls() + "  " + line + ";\nL_end:\n  ret;\n}\n";
    if (!seen.insert(text).second) return;
    char name[32];
    std::snprintf(name, sizeof name, "k%05d.ptx", n++);
    std::ofstream(dir + "/" + name) << text;
    manifest << name << '\t' << f.mnemonic << '\t' << f.section << '\t' << kind << '\t' << target
             << '\t' << (expected ? "accept" : "reject") << '\n';
  }
};

Context context(const char* target, Version v = kVersion) {
  Context c;
  c.ptx = v;
  c.target = parse_target(target);
  return c;
}

void generate(const Family& f, Writer& w) {
  auto emit = [&](const Bound& b, const std::string& kind, const char* target, Version v,
                  int mistype = -1, int count_delta = 0) {
    Kernel k;
    k.tmem = f.head == "tcgen05" && f.mnemonic != "tcgen05.alloc" && f.mnemonic != "tcgen05.commit";
    auto ops = operands(b, k, mistype);
    if (!ops) return;
    std::string o = *ops;
    if (count_delta == 2) { // a fragment-size mutant: the first vector loses its last register
      size_t close = o.find('}'), comma = o.rfind(", ", close);
      if (close == std::string::npos || comma == std::string::npos || comma < o.find('{')) return;
      o.erase(comma, close - comma);
    } else if (count_delta < 0) {
      size_t comma = o.rfind(", ");
      if (comma == std::string::npos || o.find('{') != std::string::npos) return;
      o = o.substr(0, comma);
    } else if (count_delta == 1) {
      o += (o.empty() ? "" : ", ") + k.reg(".b32");
    }
    std::string line = spelled(b) + (o.empty() ? "" : " " + o);
    bool expected =
        check_qualifiers(b, context(target, v)).empty() && mistype < 0 && count_delta == 0;
    w.write(f, kind, target, v, line, k, expected);
  };

  // Valid forms: distinct bindings on every corpus target.
  std::set<std::string> forms;
  for (uint32_t seed = 1; seed <= 40 && forms.size() < 8; ++seed) {
    auto b = solve(f, seed, valid_goals(f));
    if (!b || !forms.insert(spelled(*b)).second) continue;
    for (const char* t : kTargets) emit(*b, "valid", t, kVersion);
    if (forms.size() == 1) {
      emit(*b, "operand-count", "sm_100a", kVersion, -1, -1);
      emit(*b, "operand-count", "sm_100a", kVersion, -1, +1);
      if (fragment_sizes(*b)) emit(*b, "fragment-size", "sm_100a", kVersion, -1, 2);
      for (int i = 0; i < 2; ++i) emit(*b, "operand-type", "sm_100a", kVersion, i);
    }
  }
  // One mutant per rule: breaks that rule alone.
  for (size_t r = 0; r < f.rules.size(); ++r) {
    std::vector<Goal> goals;
    for (size_t o = 0; o < f.rules.size(); ++o) goals.push_back({&f.rules[o].holds, o != r});
    if (auto b = solve(f, 100 + static_cast<uint32_t>(r), goals))
      for (const char* t : {"sm_90a", "sm_100a"}) emit(*b, "rule:" + f.rules[r].name, t, kVersion);
  }
  // Variant minimums: a form that needs each, on every corpus target and one version below.
  for (size_t v = 0; v < f.variants.size(); ++v) {
    const Variant& var = f.variants[v];
    auto b = solve(f, 200 + static_cast<uint32_t>(v), valid_goals(f, {{&var.when, true}}));
    if (!b) continue;
    for (const char* t : kTargets) emit(*b, "target", t, kVersion);
    Version below = var.ptx.minor ? Version{var.ptx.major, static_cast<uint8_t>(var.ptx.minor - 1)}
                                  : Version{static_cast<uint8_t>(var.ptx.major - 1), 8};
    if (below >= Version{7, 0}) emit(*b, "version", "sm_80", below);
  }
}

// ---- declaration, directive and call checks (src/check/directives.cpp, src/check/calls.cpp) ---
// Whole modules rather than one instruction: each breaks one rule of those passes or is its
// accepted counterpart. `expected` is what ptxas 13.0 says of it.

struct ModuleCase {
  const char* rule;    // the manifest's family column
  const char* section;
  const char* target;
  const char* body;    // everything after the module header
  bool expected;
};

// A kernel `k` with arguments of several shapes, and callees `f`, `g`, `h`; %s is its body.
constexpr const char* kCallers =
    ".func (.param .b32 r) f(.param .b32 a, .param .b64 b) { st.param.b32 [r], 0; ret; }\n"
    ".func g(.param .align 4 .b8 a[4], .param .f32 x) { ret; }\n"
    ".func (.reg .b32 rr) h(.reg .b32 ra) { mov.b32 rr, ra; ret; }\n"
    ".global .b32 gv;\n"
    ".visible .entry k()\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  .param .b32 pa;\n  .param .b64 pb;\n  .param .b32 pr;\n  .param .b8 pc[4];\n"
    "  .param .align 4 .b8 pe[4];\n  .param .f32 pf;\n  .param .u32 pu;\n"
    "  P: .callprototype (.param .b32 _) _ (.param .b32 _);\n";

const ModuleCase kCallCases[] = {
    {"call", "9.7.12.5", "sm_90a", "call (pr), f, (pa, pb);", true},
    {"call", "9.7.12.5", "sm_90a", "call (pr), f, (pf, %rd1);", true},
    {"call", "9.7.12.5", "sm_90a", "call g, (pe, pa);", true},
    {"call", "9.7.12.5", "sm_90a", "call (%r1), h, (pa);", true},
    {"call", "9.7.12.5", "sm_90a", "mov.u64 %rd1, f;\n  call (pa), %rd1, (pr), P;", true},
    {"call", "9.7.12.5", "sm_90a", "call (pr), f, (pa);", false},
    {"call", "9.7.12.5", "sm_90a", "call f, (pa, pb);", false},
    {"call", "9.7.12.5", "sm_90a", "call (pr), f, (pb, pb);", false},
    {"call", "9.7.12.5", "sm_90a", "call (%rd1), f, (pa, pb);", false},
    {"call", "9.7.12.5", "sm_90a", "call g, (pe, pu);", false},
    {"call", "9.7.12.5", "sm_90a", "call g, (pc, pf);", false},
    {"call", "9.7.12.5", "sm_90a", "call g, (%r1, pf);", false},
    {"call", "9.7.12.5", "sm_90a", "call (pr), f, (gv, pb);", false},
    {"call", "9.7.12.5", "sm_90a", "call k, ();", false},
    {"call", "9.7.12.5", "sm_90a", "mov.u64 %rd1, f;\n  call (pa), %rd1, (pb), P;", false},
    {"call", "9.7.12.5", "sm_90a", "mov.u64 %rd1, f;\n  call (pa), %rd1, (pr);", false},
};

const ModuleCase kModuleCases[] = {
    {"directive", "11.4", "sm_90a", ".entry k() .maxntid 32, 2, 1 .maxnreg 32 .minnctapersm 2 { ret; }", true},
    {"directive", "11.4", "sm_90a", ".entry k() .reqntid 32 .explicitcluster .reqnctapercluster 2 { ret; }", true},
    {"directive", "11.4", "sm_90a", ".entry k() .pragma \"nounroll\"; { ret; }", true},
    {"directive", "11.4", "sm_90a", ".func f() .noreturn { ret; }", true},
    {"directive", "11.4", "sm_90a", ".func f() .maxntid 32 { ret; }", false},
    {"directive", "11.4", "sm_90a", ".func f() .maxnreg 32 { ret; }", false},
    {"directive", "11.4", "sm_90a", ".func f() .explicitcluster { ret; }", false},
    {"directive", "11.4", "sm_90a", ".entry k() .noreturn { ret; }", false},
    {"directive", "11.4", "sm_90a", ".entry k() .reqntid 0 { ret; }", false},
    {"directive", "11.4", "sm_90a", ".entry k() .maxnreg 32, 2 { ret; }", false},
    {"directive", "11.4", "sm_90a", ".entry k() .maxntid 32 .reqntid 32 { ret; }", false},
    {"directive", "11.4", "sm_90a", ".entry k() .maxnctapersm 2 { ret; }", false},
    {"directive", "11.4", "sm_80", ".entry k() .explicitcluster { ret; }", false},
    {"directive", "11.4", "sm_90a", ".entry k() .pragma \"enable_smem_spilling\"; { ret; }", false},
    {"declaration", "5.1", "sm_90a", ".extern .global .b32 e;\n.weak .global .b32 w = 1;\n"
                                     ".common .global .b32 c = 1;\n.const .b32 k0 = 3;", true},
    {"declaration", "5.1", "sm_90a", ".extern .global .b32 g = 1;", false},
    {"declaration", "5.1", "sm_90a", ".extern .func f() { ret; }", false},
    {"declaration", "5.1", "sm_90a", ".reg .b32 r;", false},
    {"declaration", "5.1", "sm_90a", ".param .b32 p;", false},
    {"declaration", "5.1", "sm_90a", ".shared .b32 s = 1;", false},
    {"declaration", "5.1", "sm_90a", ".entry k() { .local .b32 l = 1; ret; }", false},
    {"declaration", "5.1", "sm_90a", ".entry k(.reg .b32 a) { ret; }", false},
    {"declaration", "5.1", "sm_90a", ".global .pred p;", false},
    {"declaration", "5.1", "sm_90a", ".common .shared .b32 c;", false},
    {"declaration", "5.1", "sm_90a", ".entry k() { .extern .global .b32 e; ret; }", false},
    {"declaration", "5.1", "sm_90a", ".weak .func f() { ret; }\n.extern .entry k2();", true},
    {"declaration", "5.1", "sm_90a", ".common .func f() { ret; }", false},
    {"directive", "11.4", "sm_90a", ".pragma \"nounroll\";\n.entry k() { ret; }", true},
    {"directive", "11.4", "sm_90a", ".pragma \"used_bytes_mask 0xf\";\n.entry k() { ret; }", false},
    {"directive", "11.4", "sm_90a",
     ".entry k() {\n  .reg .b32 %r;\n  .reg .b64 %rd;\n  mov.u64 %rd, 0;\n"
     "  .pragma \"used_bytes_mask 0xf\";\n  ld.global.b32 %r, [%rd];\n  ret;\n}", true},
    {"directive", "11.4", "sm_90a",
     ".entry k() {\n  .reg .b32 %r;\n  .reg .b64 %rd;\n  mov.u64 %rd, 0;\n"
     "  .pragma \"used_bytes_mask\";\n  ld.global.b32 %r, [%rd];\n  ret;\n}", false},
    {"alias", "11.2.3", "sm_90a", ".func f() { ret; }\n.alias g, f;", false},
    {"declaration", "5.1", "sm_90a", ".func f(.shared .b32 a) { ret; }", false},
    // (.reg .pred, .b8 and .b16 parameters are not used here: `ptxas -c` rejects them, "In ABI
    // compilation, passing predicate, 8-bit and 16-bit parameters to device functions is not
    // supported", while whole-program ptxas accepts them.)
    {"declaration", "5.1", "sm_90a", ".func (.reg .b32 r) f(.param .b32 a, .reg .b32 p) { ret; }", true},
};

// Texture, surface and indirect-branch instructions (PTX §9.7.10, §9.7.11, §9.7.12.4) in a kernel
// of unified texture mode (§5.3.2; `independent`: texmode_independent, with a .samplerref):
// .texref/.surfref are module-level references, and brx.idx branches through a .branchtargets
// list. Each line is written on every corpus target.
struct ReferenceCase {
  const char* family;
  const char* section;
  const char* kind;
  const char* line;
  bool expected;
  bool independent = false;
};

constexpr const char* kReferences =
    ".global .texref t;\n.global .surfref s;\n"
    ".visible .entry k()\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .f32 %f<8>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<2>;\n"
    "  .reg .b16 %h<4>;\n"
    "  ts: .branchtargets L0, L1;\n";

const ReferenceCase kReferenceCases[] = {
    // tex (§9.7.10.3): coordinates per geometry; array index and sample number are .s32/.u32.
    {"tex", "9.7.10.3", "valid", "tex.1d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, {%f4}]", true},
    {"tex", "9.7.10.3", "valid", "tex.2d.v4.s32.s32 {%r0, %r1, %r2, %r3}, [t, {%r4, %r5}]", true},
    {"tex", "9.7.10.3", "valid",
     "tex.3d.v4.u32.f32 {%r0, %r1, %r2, %r3}, [t, {%f4, %f5, %f6, %f7}]", true},
    {"tex", "9.7.10.3", "valid", "tex.a1d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, {%r4, %f5}]", true},
    {"tex", "9.7.10.3", "valid",
     "tex.a2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, {%r4, %f5, %f6, %f7}]", true},
    {"tex", "9.7.10.3", "valid",
     "tex.cube.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, {%f4, %f5, %f6, %f7}]", true},
    {"tex", "9.7.10.3", "valid",
     "tex.acube.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, {%r4, %f5, %f6, %f7}]", true},
    {"tex", "9.7.10.3", "valid",
     "tex.2dms.v4.f32.s32 {%f0, %f1, %f2, %f3}, [t, {%r4, %r5, %r6, %r7}]", true},
    {"tex", "9.7.10.3", "valid",
     "tex.a2dms.v4.f32.s32 {%f0, %f1, %f2, %f3}, [t, {%r4, %r5, %r6, %r7}]", true},
    {"tex", "9.7.10.3", "valid",
     "tex.base.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, {%f4, %f5}]", true},
    {"tex", "9.7.10.3", "valid",
     "tex.level.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, {%f4, %f5}], %f6", true},
    {"tex", "9.7.10.3", "valid",
     "tex.grad.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, {%f4, %f5}], {%f6, %f7}, {%f6, %f7}", true},
    {"tex", "9.7.10.3", "valid", "tex.2d.v2.f16x2.f32 {%r0, %r1}, [t, {%f4, %f5}]", true},
    {"tex", "9.7.10.3", "valid", "tex.2d.v4.f16.f32 {%h0, %h1, %h2, %h3}, [t, {%f4, %f5}]", true},
    {"tex", "9.7.10.3", "valid",
     "tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, smp, {%f4, %f5}]", true, true},
    {"tex", "9.7.10.3", "rule:v2-f16x2",
     "tex.2d.v4.f16x2.f32 {%r0, %r1, %r2, %r3}, [t, {%f4, %f5}]", false},
    {"tex", "9.7.10.3", "valid",
     "tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, smp, {%f4, %f5}]", true, true},
    {"tex", "9.7.10.3", "rule:v2-f16x2", "tex.2d.v2.f32.f32 {%f0, %f1}, [t, {%f4, %f5}]", false},
    {"tex", "9.7.10.3", "rule:cube-f32",
     "tex.cube.v4.f32.s32 {%f0, %f1, %f2, %f3}, [t, {%r4, %r5, %r6, %r7}]", false},
    {"tex", "9.7.10.3", "rule:ms-s32",
     "tex.2dms.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, {%f4, %f5, %f6, %f7}]", false},
    {"tex", "9.7.10.3", "rule:ms-s32",
     "tex.level.2dms.v4.f32.s32 {%f0, %f1, %f2, %f3}, [t, {%r4, %r5, %r6, %r7}], %r0", false},
    {"tex", "9.7.10.3", "operand-count", "tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}", false},
    // tld4 (§9.7.10.4): 2D geometries only, .f32 coordinates.
    {"tld4", "9.7.10.4", "valid",
     "tld4.r.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, {%f4, %f5}]", true},
    {"tld4", "9.7.10.4", "valid",
     "tld4.a.a2d.v4.s32.f32 {%r0, %r1, %r2, %r3}, [t, {%r4, %f5, %f6, %f7}]", true},
    {"tld4", "9.7.10.4", "valid",
     "tld4.g.cube.v4.u32.f32 {%r0, %r1, %r2, %r3}, [t, {%f4, %f5, %f6, %f7}]", true},
    {"tld4", "9.7.10.4", "valid",
     "tld4.b.acube.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, {%r4, %f5, %f6, %f7}]", true},
    {"tld4", "9.7.10.4", "valid",
     "tld4.r.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, smp, {%f4, %f5}]", true, true},
    {"tld4", "9.7.10.4", "qualifier",
     "tld4.r.1d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, {%f4}]", false},
    {"tld4", "9.7.10.4", "qualifier",
     "tld4.r.2d.v4.f32.s32 {%f0, %f1, %f2, %f3}, [t, {%r4, %r5}]", false},
    // txq (§9.7.10.5)
    {"txq", "9.7.10.5", "valid", "txq.width.b32 %r0, [t]", true},
    {"txq", "9.7.10.5", "valid", "txq.num_samples.b32 %r0, [t]", true},
    {"txq", "9.7.10.5", "valid", "txq.filter_mode.b32 %r0, [t]", true},
    {"txq", "9.7.10.5", "valid", "txq.level.height.b32 %r0, [t], %r1", true},
    {"txq", "9.7.10.5", "valid", "txq.filter_mode.b32 %r0, [smp]", true, true},
    {"txq", "9.7.10.5", "rule:level-queries", "txq.level.channel_order.b32 %r0, [t], %r1", false},
    {"txq", "9.7.10.5", "operand-type", "txq.width.b32 %rd0, [t]", false},
    {"txq", "9.7.10.5", "qualifier", "txq.width.b64 %rd0, [t]", false},
    // istypep (§9.7.10.6)
    {"istypep", "9.7.10.6", "valid", "istypep.texref %p0, %rd0", true},
    {"istypep", "9.7.10.6", "valid", "istypep.samplerref %p0, %rd0", true},
    {"istypep", "9.7.10.6", "valid", "istypep.surfref %p0, %rd0", true},
    {"istypep", "9.7.10.6", "operand-type", "istypep.texref %r0, %rd0", false},
    {"istypep", "9.7.10.6", "qualifier", "istypep.b64 %p0, %rd0", false},
    // suld.b (§9.7.11.1): ptxas takes registers as wide as the .b size or wider.
    {"suld.b", "9.7.11.1", "valid", "suld.b.1d.b32.trap {%r0}, [s, {%r4}]", true},
    {"suld.b", "9.7.11.1", "valid", "suld.b.2d.v2.b32.clamp {%r0, %r1}, [s, {%r4, %r5}]", true},
    {"suld.b", "9.7.11.1", "valid",
     "suld.b.3d.v4.b8.zero {%h0, %h1, %h2, %h3}, [s, {%r4, %r5, %r6, %r7}]", true},
    {"suld.b", "9.7.11.1", "valid", "suld.b.a1d.b64.trap {%rd0}, [s, {%r4, %r5}]", true},
    {"suld.b", "9.7.11.1", "valid",
     "suld.b.a2d.ca.b16.trap {%h0}, [s, {%r4, %r5, %r6, %r7}]", true},
    {"suld.b", "9.7.11.1", "qualifier", "suld.b.1d.wb.b32.trap {%r0}, [s, {%r4}]", false},
    {"suld.b", "9.7.11.1", "operand-type", "suld.b.1d.b32.trap {%h0}, [s, {%r4}]", false},
    // sust.b, sust.p (§9.7.11.2)
    {"sust.b", "9.7.11.2", "valid", "sust.b.1d.b32.trap [s, {%r4}], {%r0}", true},
    {"sust.b", "9.7.11.2", "valid",
     "sust.b.2d.v4.b16.clamp [s, {%r4, %r5}], {%h0, %h1, %h2, %h3}", true},
    {"sust.b", "9.7.11.2", "valid",
     "sust.b.3d.wt.b64.zero [s, {%r4, %r5, %r6, %r7}], {%rd0}", true},
    {"sust.b", "9.7.11.2", "qualifier", "sust.b.1d.ca.b32.trap [s, {%r4}], {%r0}", false},
    {"sust.b", "9.7.11.2", "operand-type", "sust.b.1d.b32.trap [s, {%r4}], {%h0}", false},
    {"sust.p", "9.7.11.2", "valid", "sust.p.1d.b32.trap [s, {%r4}], {%r0}", true},
    {"sust.p", "9.7.11.2", "valid", "sust.p.2d.v2.b32.trap [s, {%r4, %r5}], {%r0, %r1}", true},
    {"sust.p", "9.7.11.2", "qualifier", "sust.p.1d.b64.trap [s, {%r4}], {%rd0}", false},
    // sured.b, sured.p (§9.7.11.3)
    {"sured.b", "9.7.11.3", "valid", "sured.b.add.1d.u32.trap [s, {%r4}], %r0", true},
    {"sured.b", "9.7.11.3", "valid", "sured.b.min.2d.s64.clamp [s, {%r4, %r5}], %rd0", true},
    {"sured.b", "9.7.11.3", "valid", "sured.b.or.3d.b32.zero [s, {%r4, %r5, %r6, %r7}], %r0", true},
    // (An unknown .op such as .xor or .inc makes ptxas 13.0 crash, so the mutants change .geom.)
    {"sured.b", "9.7.11.3", "qualifier", "sured.b.add.a1d.u32.trap [s, {%r4, %r5}], %r0", false},
    {"sured.b", "9.7.11.3", "qualifier", "sured.b.add.1d.u32 [s, {%r4}], %r0", false},
    {"sured.b", "9.7.11.3", "operand-type", "sured.b.add.1d.u32.trap [s, {%r4}], %h0", false},
    {"sured.p", "9.7.11.3", "valid",
     "sured.p.and.3d.b32.zero [s, {%r4, %r5, %r6, %r7}], %r0", true},
    {"sured.p", "9.7.11.3", "valid", "sured.p.max.2d.b64.trap [s, {%r4, %r5}], %rd0", true},
    {"sured.p", "9.7.11.3", "qualifier", "sured.p.add.1d.u32.trap [s, {%r4}], %r0", false},
    // suq (§9.7.11.4)
    {"suq", "9.7.11.4", "valid", "suq.width.b32 %r0, [s]", true},
    {"suq", "9.7.11.4", "valid", "suq.memory_layout.b32 %r0, [s]", true},
    {"suq", "9.7.11.4", "qualifier", "suq.num_samples.b32 %r0, [s]", false},
    {"suq", "9.7.11.4", "operand-type", "suq.width.b32 %rd0, [s]", false},
    // brx.idx (§9.7.12.4): the index is .u32, the target list a .branchtargets label.
    {"brx.idx", "9.7.12.4", "valid", "brx.idx %r0, ts", true},
    {"brx.idx", "9.7.12.4", "valid", "@%p0 brx.idx.uni %r0, ts", true},
    {"brx.idx", "9.7.12.4", "operand-type", "brx.idx %rd0, ts", false},
    {"brx.idx", "9.7.12.4", "operand-count", "brx.idx %r0", false},
};

void write_module(Writer& w, const ModuleCase& c, const std::string& body,
                  const char* kind = "module") {
  std::string text = ".version " + kVersion.str() + "\n.target " + c.target +
                     "\n.address_size 64\n\n" + body + "\n";
  if (!w.seen.insert(text).second) return;
  char name[32];
  std::snprintf(name, sizeof name, "k%05d.ptx", w.n++);
  std::ofstream(w.dir + "/" + name) << text;
  w.manifest << name << '\t' << c.rule << '\t' << c.section << '\t' << kind << '\t' << c.target
             << '\t' << (c.expected ? "accept" : "reject") << '\n';
}

void generate_module_checks(Writer& w) {
  for (const ModuleCase& c : kCallCases)
    write_module(w, c, std::string(kCallers) + "  " + c.body + "\n  ret;\n}");
  for (const ModuleCase& c : kModuleCases) write_module(w, c, c.body);
  for (const ReferenceCase& r : kReferenceCases)
    for (const char* t : kTargets) {
      std::string target = std::string(t) + (r.independent ? ", texmode_independent" : "");
      write_module(w, {r.family, r.section, target.c_str(), nullptr, r.expected},
                   (r.independent ? ".global .samplerref smp;\n" : "") + std::string(kReferences) +
                       "  " + r.line + ";\nL0:\n  ret;\nL1:\n  ret;\n}",
                   r.kind);
    }
}

} // namespace
} // namespace ptxvm::isa

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fputs("usage: gen_corpus DIR\n", stderr);
    return 2;
  }
  ptxvm::isa::Writer w;
  w.dir = argv[1];
  w.manifest.open(w.dir + "/manifest.tsv");
  for (const auto& f : ptxvm::isa::families())
    if (!ptxvm::isa::kNotGenerated.count(f.mnemonic)) ptxvm::isa::generate(f, w);
  ptxvm::isa::generate_module_checks(w);
  std::printf("%d kernels\n", w.n);
  return 0;
}
