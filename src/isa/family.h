// The row schema of the instruction table: one `Family` per instruction family of PTX §9.7.
//
// Rows are written as data (see integer.cpp for the shape) in four small notations, parsed once
// when the table is built so that a malformed row fails every test at start-up:
//
//   axes      "sat? .sat; type @int"   axes separated by `;`: a name (`?` when optional), then its
//             values; `*` after a value marks the default; `@name` expands a value set
//             (family.cpp).
//   operands  "d:type, a:type, b:.u32"  per operand a kind letter and a register type; see Operand.
//   when      "sat => type=.s32"        a predicate over bound axes; see Pred.
//   target    "sm_100a sm_110a sm_100f" alternatives; see TargetReq.
#pragma once

#include <bitset>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "isa/target.h"

namespace ptxvm::isa {

// The spec file a row cites (/work/shared/spec/README.md); the value is the file's number.
enum class Spec : uint8_t { Manual = 1, Tcgen05 = 0, WgmmaSp = 2, Digest = 3, Wmma = 4 };
const char* spec_file(Spec s);

// One qualifier axis: `.type` with its values, `.rnd`, `.sat`, ...
constexpr size_t kMaxValues = 256;

struct Axis {
  std::string name;
  std::vector<std::string> values; // with the leading dot: ".u32"
  bool required = false;
  int default_index = -1; // value used when the axis is absent, -1 for none
};

// A bound instruction seen by predicates: per axis the index of its value, -1 when absent.
struct Binding {
  std::vector<int16_t> value;
};

struct Family;

// A predicate over a binding, written as text:
//   expr := or ('=>' or)?      or := and ('||' and)*      and := not ('&&' not)*
//   not  := '!' not | '(' expr ')' | atom
//   atom := axis                 the axis has a value (written or default)
//         | axis '=' v[,v...]    its value is one of these
//         | axis '!=' v[,v...]   it is absent or has none of these values
class Pred {
public:
  Pred() = default;                             // always true
  Pred(const Family& f, std::string_view text); // throws std::invalid_argument
  bool eval(const Binding& b) const;
  bool always() const { return nodes_.empty(); }
  // The axes whose written qualifiers make the predicate true (to quote in messages).
  std::vector<int> axes_mentioned() const;
  const std::string& text() const { return text_; }

private:
  struct Node {
    enum Kind : uint8_t { Has, In, NotIn, Not, And, Or, Implies } kind = Has;
    int axis = -1;
    std::bitset<kMaxValues> set; // bit i: value index i
    int lhs = -1, rhs = -1;
  };
  bool eval(int n, const Binding& b) const;
  std::vector<Node> nodes_;
  int root_ = -1;
  std::string text_;
  friend class PredParser;
};

// An operand slot. Kind letters:
//   d  destination register (or `_` where the ISA allows a sink)
//   a  source: register, immediate or constant expression
//   r  source register only         i  immediate only
//   p  predicate (source may be negated `!p`)   m  memory address `[..]`
//   v  vector `{..}` (size from the `vec` axis, `vN` for a fixed size, `v*` any)
//   x  a register or, when the `vec` axis is written, a vector of that size
//   e  any value or vector (mov pack/unpack, coordinates)
//   _  the sink `_` and nothing else (mbarrier.arrive on .shared::cluster)
//   z  anything: value, vector or address (tcgen05 operands that may be either)
//   l  label or symbol name         t  `d|p` pair: register with optional predicate
//   s  a name: symbol, function, texture or surface reference
// After the kind, `-` lets a register be written negated, `-r` (vmad's sources, §9.7.18.1.3), and
// `&` lets a variable's name stand for its address, which §5.1.6.4 forbids for a .param declared
// in a body (mov, cvta). `?` after the kind makes the operand optional (optional operands are filled left to right as
// the operand count allows); `?axis` or `?[predicate]` makes it present exactly when that holds
// (setp's `c` with a .BoolOp, atom's `c` with `[op=.cas]`); `?+axis` or `?+[predicate]` makes it
// required when that holds and optional otherwise (video `c` with an .op2). The type after
// `:` is an axis name (its value gives the type), a literal type (`.u32`, `.b32|.b64`), or `*`.
// For `i`, a type `=128` or `=4|8|16` lists the values the immediate may take.
// A `~` before the type applies the relaxed size rule of §9.4.1 (ld, st, cvt); a `+` doubles the
// type's size when the `mode` axis is `.wide` (mul.wide, mad.wide).
struct Operand {
  char kind = 'a';
  uint8_t vec = 0;       // fixed vector size for `vN`; 0 when from the axis or any
  bool any_size = false; // `v*`
  bool optional = false;
  bool relaxed = false;
  bool wide = false;
  bool negatable = false;  // `-`
  bool address_of = false; // `&`
  std::optional<Pred>
      present_if; // `?axis`, `?[pred]`: the operand is there exactly when this holds
  std::optional<Pred> required_if; // `?+axis`: required when this holds, else optional
  int type_axis = -1;              // axis giving the type, or -1
  std::vector<std::string> types;  // literal allowed types when type_axis < 0; empty = any
  std::vector<uint64_t> values;    // `i:=128`: the values an immediate may take; empty = any
};

// Variant minimums: when `when` holds, the PTX ISA version and target must reach these.
struct Variant {
  Pred when;
  Version ptx;
  TargetReq target;
  std::string note; // optional reason to print: "except .kind::i8"
};

// A validity rule: `holds` must be true of every instruction of the family.
struct Rule {
  std::string name;
  Pred holds;
  std::string message;
  std::string section; // defaults to the family's
};

struct Family {
  uint16_t id = 0;
  std::string mnemonic;           // "cp.async.bulk.tensor"
  std::string head;               // "cp": the AST opcode
  std::vector<std::string> fixed; // {".async", ".bulk", ".tensor"}: leading qualifiers
  std::string section;            // "9.7.9.25.5.2"
  Spec spec = Spec::Manual;
  std::vector<Axis> axes;
  std::vector<Operand> operands;
  std::vector<Variant> variants; // the first is the family's own minimum
  std::vector<Rule> rules;
  std::optional<Version> removed_ptx; // removed from this PTX ISA version ...
  unsigned removed_sm = 0;            // ... for targets from this sm on
  std::string replacement;
  int address_axis = -1;                 // whose `.u32` conflicts with `.address_size 64`
  int axis(std::string_view name) const; // -1 when absent
  // "mnemonic §section" ("add §9.7.3.1"): one mnemonic names several families, a key one row.
  std::string key() const { return mnemonic + " §" + section; }
};

// The text form of a row, as the group files write it.
struct Row {
  std::string mnemonic;
  std::string section;
  std::string axes;
  std::string operands;
  std::string since; // PTX version and target of the family: "6.0 sm_70"
  std::vector<std::vector<std::string>> variants = {}; // {when, "ptx target"[, note]}
  std::vector<std::vector<std::string>> rules = {};    // {name, holds, message[, section]}
  Spec spec = Spec::Manual;
  // "6.4 sm_70": the family was removed for targets from sm_70 on, from PTX ISA 6.4 on.
  std::string removed = {};
  std::string replacement = {};  // what to use instead: "shfl.sync"
  std::string address_axis = {}; // an axis whose .u32/.u64 is an address size (cvta)
};

Family build_family(const Row& row); // throws std::invalid_argument naming the row

} // namespace ptxvm::isa
