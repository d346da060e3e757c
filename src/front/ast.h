// The PTX abstract syntax tree (PTX ISA §4, §5, §6, §11 — 001_23fdd5978b24a3ed.txt).
//
// The tree keeps what the source says and where it says it; it does not resolve names or judge
// validity (src/check does). Every node carries the SourceLoc of its first token.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "front/source.h"

namespace ptxvm::ast {

// ---- Constant expressions (§4.5) -------------------------------------------------------------

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

enum class BinaryOp : uint8_t {
  Mul, Div, Rem, Add, Sub, Shl, Shr, Lt, Gt, Le, Ge, Eq, Ne, BitAnd, BitXor, BitOr, LogAnd, LogOr
};
enum class UnaryOp : uint8_t { Plus, Minus, Not, BitNot };

struct Expr {
  enum class Kind : uint8_t {
    Int,          // integer literal: `value`, `explicit_unsigned` when written with a U suffix
    Float,        // 0f/0d bit pattern or decimal literal: `value` holds the bits, `is_f32` for 0f
    Symbol,       // a name: register, variable, label or function; `component` holds `.x` etc.
    Unary,        // op: `uop`, operand: kids[0]
    Binary,       // op: `bop`, operands: kids[0], kids[1]
    Conditional,  // kids[0] ? kids[1] : kids[2]
    Cast,         // (.u64)/(.s64) kids[0]; `cast_unsigned`
    Generic,      // generic(kids[0]) in initializers (§5.4.4)
    Mask,         // `value`(kids[0]) in initializers: 0xff(sym) (§5.4.4)
  };
  Kind kind;
  SourceLoc loc;
  uint64_t value = 0;
  bool explicit_unsigned = false;  // Int
  bool is_f32 = false;             // Float
  bool cast_unsigned = false;      // Cast
  UnaryOp uop = UnaryOp::Plus;
  BinaryOp bop = BinaryOp::Add;
  std::string name;       // Symbol
  std::string component;  // Symbol: `x` in %tid.x, `b0` in video operands; empty if none
  std::vector<ExprPtr> kids;
};

// ---- Instruction operands (§6) ---------------------------------------------------------------

struct Operand {
  enum class Kind : uint8_t {
    Expr,     // register, symbol, label, immediate or constant expression (incl. `!p`)
    Vector,   // {a, b, c, d}: elems
    Address,  // [a], [a+imm], [tmap, {x, y}], [tex, sampler, {c}]: elems (first is the address)
    Pair,     // a|b: elems[0], elems[1]
    Sink,     // _
    List,     // (a, b) argument list of call
  };
  Kind kind = Kind::Expr;
  SourceLoc loc;
  ExprPtr expr;                // Expr
  std::vector<Operand> elems;  // Vector, Address, Pair, List
};

struct Guard {
  std::string pred;  // predicate register name
  bool negated = false;
  SourceLoc loc;
};

struct Instruction {
  SourceLoc loc;
  std::optional<Guard> guard;
  std::string opcode;                   // `mma`
  std::vector<std::string> qualifiers;  // `.sync`, `.aligned`, `.kind::f8f6f4`, ... (with dots)
  std::vector<SourceLoc> qualifier_locs;
  std::vector<Operand> operands;
};

// ---- Declarations (§5) -----------------------------------------------------------------------

enum class Linkage : uint8_t { None, Extern, Visible, Weak, Common };
enum class Space : uint8_t { Reg, Sreg, Const, Global, Local, Param, Shared, Tex };

const char* to_string(Linkage l);  // "" for None
const char* to_string(Space s);    // ".reg" ...

// One initializer value: an expression or a brace list of nested initializers (§5.4.4).
// Sampler initializers (§5.3.2) are lists of `key = value` entries.
struct Initializer {
  SourceLoc loc;
  std::string key;                // `filter_mode` in `{ filter_mode = linear }`
  ExprPtr expr;                   // set for a leaf
  std::vector<Initializer> list;  // set for `{...}`
  bool is_list = false;
};

// One name in a declaration: `a`, `%r<100>`, `arr[4][2] = {...}`.
struct Declarator {
  SourceLoc loc;
  std::string name;
  std::optional<uint64_t> range;              // %r<N>: declares %r0 .. %r(N-1)
  std::vector<std::optional<ExprPtr>> dims;   // [] gives nullopt (size from the initializer)
  std::optional<Initializer> init;
};

struct VarDecl {
  SourceLoc loc;
  Linkage linkage = Linkage::None;
  Space space = Space::Reg;
  std::vector<std::string> attributes;  // `.attribute(...)` contents, printed verbatim-canonical
  std::optional<uint64_t> align;
  uint32_t vector = 0;                  // 0, 2, 4, 8 for .v2/.v4/.v8
  std::string type;                     // `.b32`, `.texref`, `.pred` ... (with dot)
  // `.ptr` attributes of kernel parameters (§5.1.6.3): `.ptr .global .align 16`
  bool ptr = false;
  std::optional<Space> ptr_space;
  std::optional<uint64_t> ptr_align;
  std::vector<Declarator> names;
};

// ---- Functions and statements (§11) ----------------------------------------------------------

// `.callprototype`, `.branchtargets`, `.calltargets` each follow a label: `name: .directive ...;`
struct CallPrototype {
  std::vector<VarDecl> returns;  // `.param .b32 _` entries (names may be `_`)
  std::vector<VarDecl> params;
  bool has_returns = false;       // `_` written where returns would be: has_returns = false
  bool noreturn = false;
};

struct Block;

struct Statement {
  enum class Kind : uint8_t {
    Instruction,
    Label,          // `name:`
    Decl,           // variable declarations inside a body
    Block,          // `{ ... }` nested scope
    Loc,            // .loc file line col [, function_name ..., inlined_at ...]
    Pragma,         // .pragma "str"[, "str"];
    CallPrototype,  // name: .callprototype ...
    BranchTargets,  // name: .branchtargets l1, l2;
    CallTargets,    // name: .calltargets f1, f2;
  };
  Kind kind;
  SourceLoc loc;
  Instruction inst;
  std::string name;  // Label; CallPrototype/BranchTargets/CallTargets
  VarDecl decl;
  std::unique_ptr<Block> block;
  std::vector<std::string> words;       // Pragma strings (unquoted); BranchTargets/CallTargets
  std::vector<SourceLoc> word_locs;
  uint64_t loc_args[3] = {0, 0, 0};     // Loc: file index, line, column
  ExprPtr loc_function;                 // Loc: `function_name sym[+off]` (§11.5.3), optional
  std::vector<uint64_t> inlined_at;     // Loc: `inlined_at file line col`, optional
  CallPrototype proto;
};

struct Block {
  SourceLoc loc;
  std::vector<Statement> body;
};

// A performance-tuning or attribute directive of a function (§11.4): `.maxntid 256, 1, 1`.
struct FuncDirective {
  SourceLoc loc;
  std::string name;             // `.maxntid`
  std::vector<uint64_t> values;
  std::vector<std::string> strings;  // `.pragma "nounroll"` strings
};

struct Function {
  SourceLoc loc;
  Linkage linkage = Linkage::None;
  bool is_entry = false;
  std::vector<std::string> attributes;  // `.attribute(...)`
  bool has_returns = false;
  std::vector<VarDecl> returns;
  std::string name;
  SourceLoc name_loc;
  bool has_params = false;  // `()` present (always printed for .entry)
  std::vector<VarDecl> params;
  std::vector<FuncDirective> directives;
  bool noreturn = false;
  std::unique_ptr<Block> body;  // null for a declaration (prototype ending in `;`)
};

// Debug section contents (§11.5.2): `.b8 1, 2`, `.b32 sym`, `.b32 l1 - l2`, labels.
struct SectionItem {
  SourceLoc loc;
  std::string label;            // a label definition when non-empty
  std::string type;             // `.b8`, `.b16`, `.b32`, `.b64`; empty for a label
  std::vector<ExprPtr> values;  // expressions, possibly label differences
};

struct Section {
  SourceLoc loc;
  std::string name;  // `.debug_info`
  std::vector<SectionItem> items;
};

struct FileDirective {
  SourceLoc loc;
  uint64_t index = 0;
  std::string path;
  std::vector<uint64_t> extra;  // optional timestamp, size
};

struct Alias {
  SourceLoc loc;
  std::string alias;
  std::string target;
};

struct TopLevel {
  enum class Kind : uint8_t { Decl, Function, Section, File, Alias, Dwarf, Pragma };
  Kind kind;
  SourceLoc loc;
  VarDecl decl;
  std::unique_ptr<Function> func;
  Section section;
  FileDirective file;
  Alias alias;
  std::string dwarf;                 // `@@DWARF` line text after the marker
  std::vector<std::string> pragmas;  // module-level .pragma strings
};

struct Module {
  SourceLoc loc;
  uint32_t version_major = 0, version_minor = 0;
  SourceLoc version_loc;
  std::vector<std::string> targets;  // `sm_90a`, `texmode_independent`, `debug`, ...
  SourceLoc target_loc;
  std::optional<uint32_t> address_size;
  std::vector<TopLevel> items;
};

}  // namespace ptxvm::ast
