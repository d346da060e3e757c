// The row lists of the group files, one function per §9.7 subsection group (private to src/isa).
#pragma once

#include <vector>

#include "isa/family.h"

namespace ptxvm::isa::rows {

std::vector<Row> integer();       // §9.7.1, §9.7.2
std::vector<Row> floating();      // §9.7.3
std::vector<Row> half();          // §9.7.4, §9.7.5
std::vector<Row> compare();       // §9.7.6, §9.7.7
std::vector<Row> logic();         // §9.7.8
std::vector<Row> data_movement(); // §9.7.9
std::vector<Row> texture();       // §9.7.10, §9.7.11
std::vector<Row> control();       // §9.7.12
std::vector<Row> sync();          // §9.7.13
std::vector<Row> warp_mma();      // §9.7.14
std::vector<Row> wgmma();         // §9.7.15
std::vector<Row> tcgen05();       // §9.7.16
std::vector<Row> stack();         // §9.7.17
std::vector<Row> video();         // §9.7.18
std::vector<Row> misc();          // §9.7.19

} // namespace ptxvm::isa::rows
