// The row schema of the instruction table: one `Family` per instruction family of PTX §9.7.
//
// Rows are written as data (see integer.cpp for the shape) in four small notations, parsed once
// when the table is built so that a malformed row fails every test at start-up:
//
//   axes      "sat? .sat; type @int"   axes separated by `;`: a name (`?` when optional), then its
//             values; `*` after a value marks the default; `@name` expands a value set (family.cpp).
//   operands  "d:type, a:type, b:.u32"  per operand a kind letter and a register type; see Operand.
//   when      "sat => type=.s32"        a predicate over bound axes; see Pred.
//   target    "sm_100a sm_110a sm_100f" alternatives; see TargetReq.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "isa/target.h"

namespace ptxvm::isa {

// The spec file a row cites (/work/shared/spec/README.md).
enum class Spec : uint8_t { Manual = 1, Tcgen05 = 0, WgmmaSp = 2, Digest = 3, Wmma = 4 };
const char* spec_file(Spec s);

// One qualifier axis: `.type` with its values, `.rnd`, `.sat`, ...
struct Axis {
  std::string name;
  std::vector<std::string> values;  // with the leading dot: ".u32"
  bool required = false;
  int default_index = -1;           // value used when the axis is absent, -1 for none
};

// A bound instruction seen by predicates: per axis the index of its value, -1 when absent.
struct Binding {
  std::vector<int8_t> value;
};

struct Family;

// A predicate over a binding, written as text:
//   expr := or ('=>' or)?      or := and ('||' and)*      and := not ('&&' not)*
//   not  := '!' not | '(' expr ')' | atom
//   atom := axis                 the axis has a value (written or default)
//         | axis '=' v[,v...]    its value is one of these
//         | axis '!=' v[,v...]   it has a value and not one of these
class Pred {
public:
  Pred() = default;  // always true
  Pred(const Family& f, std::string_view text);  // throws std::invalid_argument
  bool eval(const Binding& b) const;
  bool always() const { return nodes_.empty(); }
  // The axes whose written qualifiers make the predicate true (to quote in messages).
  std::vector<int> axes_mentioned() const;
  const std::string& text() const { return text_; }

private:
  struct Node {
    enum Kind : uint8_t { Has, In, NotIn, Not, And, Or, Implies } kind;
    int axis = -1;
    uint64_t set = 0;  // bit i: value index i
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
//   l  label or symbol name         t  `d|p` pair: register with optional predicate
//   s  a name: symbol, function, texture or surface reference
// `?` after the kind makes the operand optional (only trailing operands may be). The type after
// `:` is an axis name (its value gives the type), a literal type (`.u32`, `.b32|.b64`), or `*`.
// A `~` before the type applies the relaxed size rule of §9.4.1 (ld, st, cvt).
struct Operand {
  char kind = 'a';
  uint8_t vec = 0;        // fixed vector size for `vN`; 0 when from the axis or any
  bool any_size = false;  // `v*`
  bool optional = false;
  bool relaxed = false;
  int type_axis = -1;                // axis giving the type, or -1
  std::vector<std::string> types;    // literal allowed types when type_axis < 0; empty = any
};

// Variant minimums: when `when` holds, the PTX ISA version and target must reach these.
struct Variant {
  Pred when;
  Version ptx;
  TargetReq target;
  std::string note;  // optional reason to print: "except .kind::i8"
};

// A validity rule: `holds` must be true of every instruction of the family.
struct Rule {
  std::string name;
  Pred holds;
  std::string message;
  std::string section;  // defaults to the family's
};

struct Family {
  uint16_t id = 0;
  std::string mnemonic;              // "cp.async.bulk.tensor"
  std::string head;                  // "cp": the AST opcode
  std::vector<std::string> fixed;    // {".async", ".bulk", ".tensor"}: leading qualifiers
  std::string section;               // "9.7.9.25.5.2"
  Spec spec = Spec::Manual;
  std::vector<Axis> axes;
  std::vector<Operand> operands;
  std::vector<Variant> variants;     // the first is the family's own minimum
  std::vector<Rule> rules;
  std::string operands_text;         // as written, for messages
  int axis(std::string_view name) const;  // -1 when absent
};

// The text form of a row, as the group files write it.
struct Row {
  const char* mnemonic;
  const char* section;
  const char* axes;
  const char* operands;
  // ptx version and target of the family: "6.0 sm_70"
  const char* since;
  // {when, "ptx target", note}
  std::vector<std::vector<const char*>> variants = {};
  // {name, holds, message}
  std::vector<std::vector<const char*>> rules = {};
  Spec spec = Spec::Manual;
};

Family build_family(const Row& row);  // throws std::invalid_argument naming the row

}  // namespace ptxvm::isa
