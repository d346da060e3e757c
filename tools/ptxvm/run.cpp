#include "run.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include <unistd.h>

#include "check_report.h"
#include "input_file.h"
#include "interrupt.h"
#include "manifest.h"
#include "npy.h"
#include "outputs.h"
#include "ptxvm/ptxvm.h"

namespace ptxvm::tool {
namespace {

namespace fs = std::filesystem;

constexpr const char* kUsage =
    "usage: ptxvm run LAUNCH.json|- [--out DIR] [--timeout SECONDS] [--max-input-mb N]\n"
    "                 [--check=memcheck,racecheck,synccheck,initcheck,async,tcgen05|all] [--check-report=FILE.json]\n";

struct Options {
  std::string manifest;
  fs::path out;
  double timeout_s = 0;  // 0: the manifest's
  uint64_t max_input = kDefaultMaxInputBytes;
  Checks checks;
  std::string check_report;  // a JSON file for the checks' reports
};

// A problem with the launch request: exit status 1.
struct Invalid : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Output {
  uint64_t address;
  NpyArray array;
  fs::path path;
};

// The channel format of a .npy dtype (CUarray_format).
ChannelFormat format_of(const NpyArray& a) {
  static const std::pair<const char*, ChannelFormat> formats[] = {
      {"|u1", ChannelFormat::U8},  {"|i1", ChannelFormat::S8},  {"<u2", ChannelFormat::U16}, {"<i2", ChannelFormat::S16},
      {"<u4", ChannelFormat::U32}, {"<i4", ChannelFormat::S32}, {"<f2", ChannelFormat::F16}, {"<f4", ChannelFormat::F32}};
  for (auto [d, f] : formats)
    if (a.descr == d) return f;
  throw std::invalid_argument("a texture's .npy holds 8-, 16- or 32-bit integers, float16 or float32, not '" + a.descr + "'");
}

// The texture or surface object over `array`, at `address` (PTX §5.3): its sizes from the array's
// shape, innermost last ([layers or depth,] [height,] width [, channels]), its mip levels (given
// as more .npy files) in an allocation of their own after level 0.
uint64_t make_texture(Device& dev, TextureSpec t, uint64_t address, const NpyArray& array, const fs::path& base,
                      uint64_t max_input) {
  TextureResource& r = t.resource;
  r.format = format_of(array);
  std::vector<uint64_t> shape = array.shape;
  if (r.channels > 1) {
    if (shape.empty() || shape.back() != r.channels)
      throw std::invalid_argument("the array's last axis must hold the " + std::to_string(r.channels) + " channels");
    shape.pop_back();
  }
  if (shape.empty() || shape.size() > 3) throw std::invalid_argument("the array has 1 to 3 axes besides the channels");
  r.width = uint32_t(shape.back());
  r.height = shape.size() >= 2 ? uint32_t(shape[shape.size() - 2]) : 0;
  r.depth = shape.size() == 3 ? uint32_t(shape[0]) : 0;
  if ((r.layered || r.cubemap) && shape.size() == 2) r.depth = r.height, r.height = 0;  // [layers, width]
  r.bytes = array.data.size();
  r.pitch = uint64_t(r.width) * channel_bytes(r.format) * r.channels;
  r.address = address;
  if (!t.mipmaps.empty()) {  // level 0, then each level's texels, one allocation
    std::vector<uint8_t> all = array.data;
    for (const std::string& m : t.mipmaps) {
      const std::string path = (base / m).string();
      NpyArray level;
      try {
        level = parse_npy(read_input(path, max_input), path);
      } catch (const NpyError& e) {
        throw std::invalid_argument(e.what());
      }
      if (level.descr != array.descr) throw std::invalid_argument(m + ": a mip level has the dtype of level 0");
      all.insert(all.end(), level.data.begin(), level.data.end());
    }
    r.address = dev.malloc(all.size());
    dev.copy_to_device(r.address, all.data(), all.size());
  }
  return t.surface ? dev.create_surface(r) : dev.create_texture(r, t.sampler);
}

int run(const Options& o) {
  const bool from_stdin = o.manifest == "-";
  Manifest m;
  try {
    m = parse_manifest(read_input(o.manifest, o.max_input));
  } catch (const ManifestError& e) {
    throw Invalid(e.what());
  }
  const fs::path base = from_stdin ? fs::path() : fs::path(o.manifest).parent_path();
  const fs::path out_dir = !o.out.empty() ? o.out : base / "out";
  if (o.timeout_s > 0) m.config.watchdog_seconds = o.timeout_s;

  // Every output name is checked before anything runs.
  std::vector<fs::path> out_paths(m.args.size());
  for (size_t i = 0; i < m.args.size(); ++i)
    if (m.args[i].output) try {
        out_paths[i] = output_path(out_dir, *m.args[i].output);
        for (size_t j = 0; j < i; ++j)
          if (out_paths[j] == out_paths[i])
            throw OutputError("'" + *m.args[i].output + "' is also args[" + std::to_string(j) + "]'s output");
      } catch (const OutputError& e) {
        throw Invalid("args[" + std::to_string(i) + "].output: " + e.what());
      }

  const std::string ptx_path = (base / m.ptx).string();
  const std::string ptx = read_input(ptx_path, o.max_input);
  Device dev;
  std::string diags;
  auto module = dev.load_module(ptx, ptx_path, &diags);
  std::fputs(diags.c_str(), stderr);
  if (!module) return 1;

  std::vector<KernelArg> args;
  std::vector<Output> outputs;
  std::map<std::string, std::pair<uint64_t, NpyArray>> buffers;  // by .npy name: one allocation each
  for (size_t i = 0; i < m.args.size(); ++i) {
    ArgSpec& a = m.args[i];
    if (a.buffer.empty()) {
      args.push_back(std::move(a.value));
      continue;
    }
    const std::string at = "args[" + std::to_string(i) + "]" + (a.tensormap ? ".tensormap" : "");
    auto found = buffers.find(a.buffer);
    if (found == buffers.end()) {
      const std::string path = (base / a.buffer).string();
      NpyArray arr;
      try {
        arr = parse_npy(read_input(path, o.max_input), path);
      } catch (const NpyError& e) {
        throw Invalid(at + ".buffer: " + e.what());
      }
      uint64_t addr = dev.malloc(arr.data.size());
      dev.copy_to_device(addr, arr.data.data(), arr.data.size());
      found = buffers.emplace(a.buffer, std::pair{addr, std::move(arr)}).first;
    }
    const uint64_t addr = found->second.first;
    if (a.texture) {
      try {
        args.push_back(arg(make_texture(dev, *a.texture, addr, found->second.second, base, o.max_input)));
      } catch (const std::invalid_argument& e) {
        throw Invalid(at + (a.texture->surface ? ".surface: " : ".texture: ") + e.what());
      }
    } else if (a.tensormap) {
      a.tensormap->address = addr + a.offset;
      const std::string rule = units::tma::validate(*a.tensormap);
      if (!rule.empty()) throw Invalid(at + ": not a tensor map cuTensorMapEncodeTiled would build: " + rule);
      const auto bytes = units::tma::encode(*a.tensormap);
      args.push_back({{bytes.begin(), bytes.end()}});
    } else {
      args.push_back(arg(addr));
    }
    if (a.output) outputs.push_back({addr, found->second.second, out_paths[i]});
  }

  InterruptScope interrupt;  // from here to the renames, a signal stops the launch cleanly
  m.config.cancel = interrupt.flag();
  m.config.progress = isatty(STDERR_FILENO) != 0;  // CTAs done / total while a long launch runs
  m.config.checks = o.checks;
  LaunchResult r = module->launch(m.kernel, m.config, args);
  std::fputs(r.output.c_str(), stdout);
  std::fflush(stdout);
  if (o.checks.any()) {
    for (const CheckReport& c : r.reports) std::fputs(c.render(ptx_path).c_str(), stderr);
    uint64_t total = 0;
    for (const CheckReport& c : r.reports) total += c.count;
    std::fprintf(stderr, "========= ERROR SUMMARY: %llu error%s\n", static_cast<unsigned long long>(total),
                 total == 1 ? "" : "s");
    if (!o.check_report.empty()) write_check_report(o.check_report, ptx_path, r.reports);
  }
  if (!r.ok && !r.interrupted) {
    std::fputs(r.error.c_str(), stderr);
    if (!r.error.empty() && r.error.back() != '\n') std::fputc('\n', stderr);
    return r.guest_fault ? 2 : 1;
  }
  StagedOutputs staged;
  if (!r.interrupted)
    for (Output& out : outputs) {
      dev.copy_to_host(out.array.data.data(), out.address, out.array.data.size());
      staged.stage(out.path, out.array);
    }
  if (int sig = interrupt.signal()) {  // during the launch or while the outputs were staged
    std::fprintf(stderr, "%s: interrupted by %s; no outputs written\n%s", o.manifest.c_str(),
                 sig == SIGINT ? "SIGINT" : "SIGTERM", r.error.c_str());
    return 128 + sig;
  }
  staged.commit();
  return r.reports.empty() ? 0 : 2;
}

// Options after the manifest, as `--flag value` or `--flag=value`; false (with a message) on a
// malformed one.
bool parse_options(int argc, char** argv, Options& o) {
  if (argc < 1) return false;
  o.manifest = argv[0];
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i], value;
    if (const size_t eq = flag.find('='); eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag.resize(eq);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      return false;
    }
    char* end = nullptr;
    if (flag == "--out") {
      o.out = value;
    } else if (flag == "--timeout") {
      o.timeout_s = std::strtod(value.c_str(), &end);
      if (*end || !(o.timeout_s > 0) || o.timeout_s > 1e9) {
        std::fprintf(stderr, "ptxvm run: --timeout: expected a positive number of seconds, got '%s'\n", value.c_str());
        return false;
      }
    } else if (flag == "--max-input-mb") {
      unsigned long long mb = std::strtoull(value.c_str(), &end, 10);
      if (*end || value.empty() || value[0] == '-' || mb == 0 || mb > (uint64_t{1} << 24)) {
        std::fprintf(stderr, "ptxvm run: --max-input-mb: expected a count of MiB from 1 to 16777216, got '%s'\n",
                     value.c_str());
        return false;
      }
      o.max_input = mb << 20;
    } else if (flag == "--check") {
      std::string error;
      const std::optional<Checks> c = Checks::parse(value, &error);
      if (!c) {
        std::fprintf(stderr, "ptxvm run: --check: %s\n", error.c_str());
        return false;
      }
      o.checks = *c;
    } else if (flag == "--check-report") {
      o.check_report = value;
    } else {
      std::fprintf(stderr, "ptxvm run: unknown option '%s'\n", flag.c_str());
      return false;
    }
  }
  if (!o.check_report.empty() && !o.checks.any()) {
    std::fputs("ptxvm run: --check-report needs --check\n", stderr);
    return false;
  }
  return true;
}

}  // namespace

int run_manifest(int argc, char** argv) {
  Options o;
  if (!parse_options(argc, argv, o)) {
    std::fputs(kUsage, stderr);
    return 1;
  }
  const std::string name = o.manifest == "-" ? "<stdin>" : o.manifest;
  try {
    return run(o);
  } catch (const Invalid& e) {
    std::fprintf(stderr, "%s: error: %s\n", name.c_str(), e.what());
    return 1;
  } catch (const InputError& e) {
    std::fprintf(stderr, "%s: error: %s\n", name.c_str(), e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ptxvm: internal error: %s\n", e.what());
    return 3;
  }
}

}  // namespace ptxvm::tool
