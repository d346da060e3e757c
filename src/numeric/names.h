// PTX type names -> descriptors, for whoever turns qualifiers into operations at load time.
#pragma once

#include <optional>
#include <string_view>

#include "numeric/cvt_int.h"
#include "numeric/format.h"
#include "numeric/round.h"

namespace ptxvm::numeric {

// "f32", "bf16", "e4m3", "ue8m0", ... (element names, without the leading '.' or x2/x4).
std::optional<Format> format_by_name(std::string_view name);
// "u8" ... "s64".
std::optional<IntType> int_type_by_name(std::string_view name);
// "rn", "rna", "rz", "rm", "rp", "rs" and the integer forms "rni", "rzi", "rmi", "rpi".
std::optional<Round> round_by_name(std::string_view name);

}  // namespace ptxvm::numeric
