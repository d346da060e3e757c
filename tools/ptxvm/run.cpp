#include "run.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "npy.h"
#include "ptxvm/ptxvm.h"

namespace ptxvm::tool {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A manifest problem: exit status 1.
struct Invalid : std::runtime_error {
  using std::runtime_error::runtime_error;
};

Dim3 dim3(const json& j, const char* what) {
  if (!j.is_array() || j.empty() || j.size() > 3)
    throw Invalid(std::string("'") + what + "' must be an array of 1 to 3 positive integers");
  uint32_t v[3] = {1, 1, 1};
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_number_unsigned() || j[i].get<uint64_t>() == 0 || j[i].get<uint64_t>() > UINT32_MAX)
      throw Invalid(std::string("'") + what + "' must be an array of 1 to 3 positive integers");
    v[i] = j[i].get<uint32_t>();
  }
  return {v[0], v[1], v[2]};
}

template <typename T>
KernelArg number(const json& v, const std::string& key) {
  if (!v.is_number()) throw Invalid("argument '" + key + "' needs a number");
  if constexpr (std::is_integral_v<T>) {
    if (!v.is_number_integer()) throw Invalid("argument '" + key + "' needs an integer");
    if (v.is_number_unsigned()) {
      auto x = v.get<uint64_t>();
      if (x > static_cast<uint64_t>(std::numeric_limits<T>::max()))
        throw Invalid("argument '" + key + "' value " + v.dump() + " does not fit");
      return arg(static_cast<T>(x));
    }
    auto x = v.get<int64_t>();
    if (x < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
        (x > 0 && static_cast<uint64_t>(x) > static_cast<uint64_t>(std::numeric_limits<T>::max())))
      throw Invalid("argument '" + key + "' value " + v.dump() + " does not fit");
    return arg(static_cast<T>(x));
  } else {
    return arg(v.get<T>());
  }
}

// f16/bf16 scalars are bit patterns: "0x3c00" or an integer.
KernelArg half_bits(const json& v, const std::string& key) {
  uint64_t bits;
  if (v.is_string()) bits = std::stoull(v.get<std::string>(), nullptr, 0);
  else if (v.is_number_unsigned()) bits = v.get<uint64_t>();
  else throw Invalid("argument '" + key + "' needs a bit pattern such as \"0x3c00\"");
  if (bits > 0xffff) throw Invalid("argument '" + key + "' bit pattern does not fit in 16 bits");
  return arg(static_cast<uint16_t>(bits));
}

std::vector<uint8_t> hex_bytes(const std::string& s) {
  if (s.size() % 2) throw Invalid("'bytes' needs an even number of hex digits");
  std::vector<uint8_t> out;
  for (size_t i = 0; i < s.size(); i += 2) {
    unsigned v;
    if (sscanf(s.c_str() + i, "%2x", &v) != 1) throw Invalid("'bytes' must be hex digits");
    out.push_back(static_cast<uint8_t>(v));
  }
  return out;
}

struct Output {
  uint64_t address;
  NpyArray array;
  std::string name;
};

int run(const fs::path& manifest_path, fs::path out_dir) {
  std::ifstream in(manifest_path);
  if (!in) throw Invalid("cannot read " + manifest_path.string());
  json m;
  try {
    m = json::parse(in);
  } catch (const json::parse_error& e) {
    throw Invalid(std::string("invalid JSON: ") + e.what());
  }
  fs::path base = manifest_path.parent_path();
  for (const char* key : {"ptx", "kernel", "grid", "block"})
    if (!m.contains(key)) throw Invalid(std::string("missing '") + key + "'");
  fs::path ptx_path = base / m["ptx"].get<std::string>();
  std::ifstream ptx_in(ptx_path, std::ios::binary);
  if (!ptx_in) throw Invalid("cannot read " + ptx_path.string());
  std::stringstream ptx;
  ptx << ptx_in.rdbuf();

  Device dev;
  std::string diags;
  auto module = dev.load_module(ptx.str(), ptx_path.string(), &diags);
  std::fputs(diags.c_str(), stderr);
  if (!module) return 1;

  LaunchConfig cfg;
  cfg.grid = dim3(m["grid"], "grid");
  cfg.block = dim3(m["block"], "block");
  if (m.contains("cluster")) cfg.cluster = dim3(m["cluster"], "cluster");
  if (m.contains("shared_bytes")) cfg.shared_bytes = m["shared_bytes"].get<uint32_t>();
  if (m.contains("threads")) cfg.threads = m["threads"].get<unsigned>();
  if (m.contains("cooperative")) cfg.cooperative = m["cooperative"].get<bool>();
  if (m.contains("timeout_s")) cfg.watchdog_seconds = m["timeout_s"].get<double>();
  if (m.contains("model")) {  // the tensor-core arithmetic model
    if (m["model"] != "sm90" && m["model"] != "exact")
      throw Invalid("'model' must be \"sm90\" or \"exact\"");
    cfg.tensor_model = m["model"] == "exact" ? TensorModel::Exact : TensorModel::Sm90;
  }

  std::vector<KernelArg> args;
  std::vector<Output> outputs;
  for (const json& a : m.value("args", json::array())) {
    if (!a.is_object() || a.empty()) throw Invalid("each argument must be an object such as {\"u32\": 7}");
    if (a.contains("buffer")) {
      NpyArray arr;
      try {
        arr = read_npy((base / a["buffer"].get<std::string>()).string());
      } catch (const std::runtime_error& e) {
        throw Invalid(e.what());
      }
      uint64_t addr = dev.malloc(arr.data.size());
      dev.copy_to_device(addr, arr.data.data(), arr.data.size());
      args.push_back(arg(addr));
      if (a.contains("output")) outputs.push_back({addr, std::move(arr), a["output"].get<std::string>()});
      continue;
    }
    const auto first = a.begin();  // (not items(): its proxy dies before the key is read)
    const std::string key = first.key();
    const json& v = first.value();
    if (key == "u8") args.push_back(number<uint8_t>(v, key));
    else if (key == "s8") args.push_back(number<int8_t>(v, key));
    else if (key == "u16") args.push_back(number<uint16_t>(v, key));
    else if (key == "s16") args.push_back(number<int16_t>(v, key));
    else if (key == "u32") args.push_back(number<uint32_t>(v, key));
    else if (key == "s32") args.push_back(number<int32_t>(v, key));
    else if (key == "u64") args.push_back(number<uint64_t>(v, key));
    else if (key == "s64") args.push_back(number<int64_t>(v, key));
    else if (key == "f32") args.push_back(number<float>(v, key));
    else if (key == "f64") args.push_back(number<double>(v, key));
    else if (key == "f16" || key == "bf16") args.push_back(half_bits(v, key));
    else if (key == "bytes") args.push_back({hex_bytes(v.get<std::string>())});
    else throw Invalid("unknown argument kind '" + key + "'");
  }

  LaunchResult r = module->launch(m["kernel"].get<std::string>(), cfg, args);
  std::fputs(r.output.c_str(), stdout);
  if (!r.ok) {
    std::fputs(r.error.c_str(), stderr);
    if (r.error.back() != '\n') std::fputc('\n', stderr);
    return r.guest_fault ? 2 : 1;
  }
  if (!outputs.empty()) fs::create_directories(out_dir);
  for (Output& o : outputs) {
    dev.copy_to_host(o.array.data.data(), o.address, o.array.data.size());
    write_npy((out_dir / o.name).string(), o.array);
  }
  return 0;
}

}  // namespace

int run_manifest(int argc, char** argv) {
  if (argc < 1 || argc > 3 || (argc == 2) || (argc == 3 && std::string(argv[1]) != "--out")) {
    std::fputs("usage: ptxvm run LAUNCH.json [--out DIR]\n", stderr);
    return 1;
  }
  fs::path manifest = argv[0];
  fs::path out = argc == 3 ? fs::path(argv[2]) : manifest.parent_path() / "out";
  try {
    return run(manifest, out);
  } catch (const Invalid& e) {
    std::fprintf(stderr, "%s: error: %s\n", manifest.string().c_str(), e.what());
    return 1;
  } catch (const nlohmann::json::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", manifest.string().c_str(), e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ptxvm: internal error: %s\n", e.what());
    return 3;
  }
}

}  // namespace ptxvm::tool
