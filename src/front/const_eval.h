// Constant-expression evaluation with the typing rules of PTX §4.5.5/§4.5.6 (Table 5,
// 001_23fdd5978b24a3ed.txt): every integer is .s64 or .u64, floats are .f64.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "front/ast.h"

namespace ptxvm::front {

struct ConstValue {
  enum class Type : uint8_t { S64, U64, F64, F32 };  // F32: a lone 0f literal (§4.5.2)
  Type type = Type::S64;
  uint64_t bits = 0;  // integer value, or the IEEE bits of the float
  bool is_integer() const { return type == Type::S64 || type == Type::U64; }
  int64_t as_signed() const { return static_cast<int64_t>(bits); }
  double as_double() const;
};

struct EvalResult {
  std::optional<ConstValue> value;  // set on success
  std::string error;                // why not, when `value` is empty
  SourceLoc loc;                    // where the problem is
};

// Evaluates `e`. Symbols are not constants (except WARP_SZ, which is 32, §4.5.1): an
// expression naming a variable or label gives an error that says so.
EvalResult evaluate(const ast::Expr& e);

}  // namespace ptxvm::front
