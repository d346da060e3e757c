// Which modules of the corpus (tests/corpus/ptx: real PTX from nvcc, Triton and hand-written
// sources) load for execution, and why the others do not: every module that lowers must keep
// lowering, and each that does not must fail with the diagnostic tests/corpus/unloadable.txt
// records for it (its first `unsupported:` line), so an instruction family that starts executing
// shows up as a change to that file.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "ptxvm/ptxvm.h"

namespace ptxvm::test {
namespace {

namespace fs = std::filesystem;

fs::path corpus() { return fs::path(__FILE__).parent_path() / "../corpus"; }

// "file: reason" lines.
std::map<std::string, std::string> expected_unloadable() {
  std::map<std::string, std::string> m;
  std::ifstream f(corpus() / "unloadable.txt");
  for (std::string line; std::getline(f, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t colon = line.find(": ");
    m[line.substr(0, colon)] = line.substr(colon + 2);
  }
  return m;
}

// The first "unsupported: ..." of a diagnostic text, without its file:line:column.
std::string first_unsupported(const std::string& diags) {
  const size_t at = diags.find("unsupported: ");
  if (at == std::string::npos) return diags.substr(0, diags.find('\n'));
  return diags.substr(at, diags.find('\n', at) - at);
}

TEST(Corpus, ModulesLoadForExecutionOrSayWhyNot) {
  const std::map<std::string, std::string> expected = expected_unloadable();
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(corpus() / "ptx"))
    if (e.path().extension() == ".ptx") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_GT(files.size(), 100u);
  std::ostringstream actual;  // what unloadable.txt should say, on failure
  bool same = true;
  for (const fs::path& p : files) {
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    Device dev;
    std::string diags;
    const bool loaded = static_cast<bool>(dev.load_module(ss.str(), p.filename().string(), &diags));
    const std::string name = p.filename().string();
    const auto want = expected.find(name);
    if (loaded) {
      EXPECT_EQ(want, expected.end()) << name << " loads now; drop it from tests/corpus/unloadable.txt";
      same &= want == expected.end();
    } else {
      const std::string why = first_unsupported(diags);
      actual << name << ": " << why << "\n";
      EXPECT_TRUE(want != expected.end() && want->second == why)
          << name << " does not load: " << why;
      same &= want != expected.end() && want->second == why;
    }
  }
  if (!same) ADD_FAILURE() << "tests/corpus/unloadable.txt should read:\n" << actual.str();
}

}  // namespace
}  // namespace ptxvm::test
