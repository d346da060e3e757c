// ptxvm/check.h: parsing a list of checks, rendering a report.
#include <algorithm>
#include <cstdio>
#include <iterator>

#include "ptxvm/check.h"

namespace ptxvm {

std::optional<Checks> Checks::parse(std::string_view list, std::string* error) {
  Checks c;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    const std::string_view name = list.substr(0, comma);
    if (name == "all") c.memcheck = c.racecheck = c.synccheck = c.initcheck = c.async = c.tcgen05 = true;
    else if (name == "memcheck") c.memcheck = true;
    else if (name == "racecheck") c.racecheck = true;
    else if (name == "synccheck") c.synccheck = true;
    else if (name == "initcheck") c.initcheck = true;
    else if (name == "async") c.async = true;
    else if (name == "tcgen05") c.tcgen05 = true;
    else {
      if (error)
        *error = "unknown check '" + std::string(name) + "' (expected memcheck, racecheck, synccheck, initcheck, async, tcgen05 or all)";
      return std::nullopt;
    }
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return c;
}

namespace {

std::string triple(const uint32_t (&v)[3]) {
  return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + ")";
}

std::string where(const CheckSite& s, const std::string& source) {
  const std::string program =
      s.source_line ? " [" + s.source_file + ":" + std::to_string(s.source_line) + "]" : std::string();
  return "thread " + triple(s.thread) + " (warp " + std::to_string(s.warp) + ", lane " + std::to_string(s.lane) +
         ") at " + source + ":" + std::to_string(s.line) + program + " (pc " + std::to_string(s.pc) + "): " +
         s.instruction;
}

}  // namespace

std::string CheckReport::render(const std::string& source) const {
  constexpr const char* kIndent = "=========     ";
  std::string text = "========= " + check + ": " + kind + " in kernel '" + kernel + "', CTA " + triple(site.cta);
  if (!space.empty()) {
    char at[64];
    snprintf(at, sizeof at, "0x%llx", static_cast<unsigned long long>(address));
    text += ", " + std::to_string(size) + " bytes of " + space + " memory at " + at;
  }
  text += "\n";
  text += kIndent + where(site, source) + "\n";
  const bool issue = (check == "async" && kind.rfind("async-proxy", 0) != 0) || check == "tcgen05";  // else a write
  if (other) {  // the other thread's CTA when it is another (a DSMEM hazard)
    const bool elsewhere = !std::equal(std::begin(site.cta), std::end(site.cta), std::begin(other->cta));
    text += kIndent + std::string(issue ? "issued by " : "and ") + (elsewhere ? "CTA " + triple(other->cta) + " " : "") +
            where(*other, source) + "\n";
  }
  if (!detail.empty()) text += kIndent + detail + "\n";
  if (count > 1) text += kIndent + std::to_string(count) + " times at these instructions\n";
  return text;
}

}  // namespace ptxvm
