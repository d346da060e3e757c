#include "check_report.h"

#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace ptxvm::tool {
namespace {

nlohmann::json site(const CheckSite& s) {
  nlohmann::json j = {{"cta", s.cta},   {"thread", s.thread}, {"warp", s.warp},
                      {"lane", s.lane}, {"pc", s.pc},         {"line", s.line}, {"instruction", s.instruction}};
  if (s.source_line) j["source"] = {{"file", s.source_file}, {"line", s.source_line}};
  return j;
}

}  // namespace

void write_check_report(const std::string& path, const std::string& source, const std::vector<CheckReport>& reports) {
  nlohmann::json all = nlohmann::json::array();
  uint64_t errors = 0;
  for (const CheckReport& r : reports) {
    nlohmann::json j = {{"check", r.check}, {"kind", r.kind},   {"kernel", r.kernel},
                        {"site", site(r.site)}, {"count", r.count}, {"detail", r.detail}};
    if (r.other) j["other"] = site(*r.other);
    if (!r.space.empty()) j["access"] = {{"space", r.space}, {"address", r.address}, {"size", r.size}};
    all.push_back(std::move(j));
    errors += r.count;
  }
  std::ofstream out(path);
  out << nlohmann::json{{"source", source}, {"errors", errors}, {"reports", all}}.dump(2) << "\n";
  if (!out) throw std::runtime_error("cannot write the check report '" + path + "'");
}

}  // namespace ptxvm::tool
