#include "manifest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "isa/suggest.h"

namespace ptxvm::tool {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& path, const std::string& expected, const json& got) {
  std::string given;
  switch (got.type()) {
    case json::value_t::string: given = got.dump() + " (a string)"; break;
    case json::value_t::array: given = "an array"; break;
    case json::value_t::object: given = "an object"; break;
    default: given = got.dump();  // numbers, booleans, null as written
  }
  throw ManifestError(path + ": expected " + expected + ", got " + given);
}

// Keys of `j` beyond `known`: an error naming the closest known key.
void only_keys(const json& j, const std::string& path, const std::vector<std::string>& known) {
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::find(known.begin(), known.end(), it.key()) == known.end()) {
      std::string near = isa::nearest(it.key(), known);
      throw ManifestError((path.empty() ? "" : path + ": ") + "unknown key '" + it.key() + "'" +
                          (near.empty() ? "" : "; did you mean '" + near + "'?"));
    }
}

std::string string_at(const json& j, const std::string& path) {
  if (!j.is_string() || j.get_ref<const std::string&>().empty()) fail(path, "a non-empty string", j);
  return j.get<std::string>();
}

// An integer in [lo, hi] (as int64 or uint64, whichever holds it).
template <typename T>
T integer_at(const json& j, const std::string& path, T lo = std::numeric_limits<T>::min(),
             T hi = std::numeric_limits<T>::max()) {
  std::string range = "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  if (j.is_number_unsigned()) {
    uint64_t v = j.get<uint64_t>();
    if (v <= static_cast<uint64_t>(hi) && (lo <= 0 || v >= static_cast<uint64_t>(lo))) return static_cast<T>(v);
  } else if (j.is_number_integer()) {
    int64_t v = j.get<int64_t>();
    if (v >= static_cast<int64_t>(lo) && (v < 0 || static_cast<uint64_t>(v) <= static_cast<uint64_t>(hi)))
      return static_cast<T>(v);
  }
  fail(path, range, j);
}

Dim3 dim3_at(const json& j, const std::string& path) {
  if (!j.is_array() || j.empty() || j.size() > 3) fail(path, "an array of 1 to 3 positive integers", j);
  uint32_t v[3] = {1, 1, 1};
  for (size_t i = 0; i < j.size(); ++i)
    v[i] = integer_at<uint32_t>(j[i], path + "[" + std::to_string(i) + "]", 1);
  return {v[0], v[1], v[2]};
}

template <typename T>
KernelArg float_at(const json& j, const std::string& path) {
  if (!j.is_number()) fail(path, "a number", j);
  double v = j.get<double>();
  if (std::isfinite(v) && std::fabs(v) > std::numeric_limits<T>::max()) fail(path, "a number within f32 range", j);
  return arg(static_cast<T>(v));
}

// f16/bf16: the bit pattern, "0x3c00" or an integer.
KernelArg half_at(const json& j, const std::string& path) {
  const char* expected = "a 16-bit pattern such as \"0x3c00\" or 15360";
  if (j.is_string()) {
    const std::string& s = j.get_ref<const std::string&>();
    unsigned v = 0;
    int used = 0;
    if (s.size() > 2 && s.size() <= 6 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
        std::sscanf(s.c_str() + 2, "%x%n", &v, &used) == 1 && static_cast<size_t>(used) == s.size() - 2 &&
        s.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos)
      return arg(static_cast<uint16_t>(v));
    fail(path, expected, j);
  }
  if (!j.is_number_integer()) fail(path, expected, j);
  return arg(integer_at<uint16_t>(j, path));
}

std::vector<uint8_t> hex_at(const json& j, const std::string& path) {
  const char* expected = "an even number of hex digits such as \"0a0b0c0d\"";
  if (!j.is_string()) fail(path, expected, j);
  const std::string& s = j.get_ref<const std::string&>();
  if (s.size() % 2 || s.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) fail(path, expected, j);
  std::vector<uint8_t> out;
  for (size_t i = 0; i < s.size(); i += 2) out.push_back(static_cast<uint8_t>(std::stoul(s.substr(i, 2), nullptr, 16)));
  return out;
}

using ScalarReader = KernelArg (*)(const json&, const std::string&);
const std::map<std::string, ScalarReader>& scalar_kinds() {
  static const std::map<std::string, ScalarReader> kinds = {
      {"u8", [](const json& j, const std::string& p) { return arg(integer_at<uint8_t>(j, p)); }},
      {"s8", [](const json& j, const std::string& p) { return arg(integer_at<int8_t>(j, p)); }},
      {"u16", [](const json& j, const std::string& p) { return arg(integer_at<uint16_t>(j, p)); }},
      {"s16", [](const json& j, const std::string& p) { return arg(integer_at<int16_t>(j, p)); }},
      {"u32", [](const json& j, const std::string& p) { return arg(integer_at<uint32_t>(j, p)); }},
      {"s32", [](const json& j, const std::string& p) { return arg(integer_at<int32_t>(j, p)); }},
      {"u64", [](const json& j, const std::string& p) { return arg(integer_at<uint64_t>(j, p)); }},
      {"s64", [](const json& j, const std::string& p) { return arg(integer_at<int64_t>(j, p)); }},
      {"f32", float_at<float>},
      {"f64", float_at<double>},
      {"f16", half_at},
      {"bf16", half_at},
  };
  return kinds;
}

// One of `names` (a CUDA enumeration in lower case), as its index.
template <typename E>
E name_at(const json& j, const std::string& path, const std::vector<std::string>& names) {
  if (j.is_string())
    for (size_t i = 0; i < names.size(); ++i)
      if (j.get_ref<const std::string&>() == names[i]) return static_cast<E>(i);
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + ("\"" + n + "\"");
  fail(path, "one of " + list, j);
}

// An array of `lo`..`hi` integers, each in [1, max].
std::vector<uint64_t> counts_at(const json& j, const std::string& path, size_t lo, size_t hi, uint64_t max) {
  if (!j.is_array() || j.size() < lo || j.size() > hi)
    fail(path, "an array of " + std::to_string(lo) + " to " + std::to_string(hi) + " positive integers", j);
  std::vector<uint64_t> v;
  for (size_t i = 0; i < j.size(); ++i) v.push_back(integer_at<uint64_t>(j[i], path + "[" + std::to_string(i) + "]", 1, max));
  return v;
}

// {"buffer": "a.npy", "dtype": "float16", "dims": [...], "strides": [...], "box": [...], ...}
void tensormap_at(const json& j, const std::string& path, ArgSpec& a) {
  if (!j.is_object()) fail(path, "an object with buffer, dtype, dims, strides and box", j);
  only_keys(j, path, {"buffer", "offset", "dtype", "dims", "strides", "box", "element_strides", "interleave", "swizzle",
                      "l2_promotion", "oob_fill", "mode", "lower_corner", "upper_corner", "channels_per_pixel",
                      "pixels_per_column"});
  // 0 tile, 1 im2col, 2 and 3 wide im2col (cuTensorMapEncodeIm2colWide) in mode W and W128
  const int mode = j.contains("mode") ? name_at<int>(j["mode"], path + ".mode", {"tile", "im2col", "im2col_w", "im2col_w128"}) : 0;
  const bool im2col = mode != 0;
  for (const char* key : {"buffer", "dtype", "dims"})
    if (!j.contains(key)) throw ManifestError(path + ": missing '" + key + "'");
  std::vector<const char*> required = {"box"};
  if (im2col) required = {"lower_corner", "upper_corner", "channels_per_pixel"};
  if (mode == 1 || mode == 2) required.push_back("pixels_per_column");  // W128 ignores it
  for (const char* key : required)
    if (!j.contains(key)) throw ManifestError(path + ": missing '" + key + "'" + (im2col ? " (an im2col map)" : ""));
  using namespace units::tma;
  TensorMap m;
  a.buffer = string_at(j["buffer"], path + ".buffer");
  if (j.contains("offset")) a.offset = integer_at<uint64_t>(j["offset"], path + ".offset");
  m.type = name_at<DataType>(j["dtype"], path + ".dtype",
                             {"uint8", "uint16", "uint32", "int32", "uint64", "int64", "float16", "float32", "float64",
                              "bfloat16", "float32_ftz", "tfloat32", "tfloat32_ftz", "16u4_align8b", "16u4_align16b",
                              "16u6_align16b"});
  const std::vector<uint64_t> dims = counts_at(j["dims"], path + ".dims", 1, 5, uint64_t{1} << 32);
  m.rank = static_cast<uint32_t>(dims.size());
  const std::vector<uint64_t> box = im2col ? std::vector<uint64_t>(m.rank, 1) : counts_at(j["box"], path + ".box", m.rank, m.rank, 256);
  if (im2col) {  // cuTensorMapEncodeIm2col's fields, or cuTensorMapEncodeIm2colWide's (W's corners only)
    m.im2col = true;
    if (mode >= 2) m.wide = static_cast<WideMode>(mode - 2);
    for (const char* key : {"lower_corner", "upper_corner"}) {
      const json& c = j[key];
      const std::string at = path + "." + key;
      if (!c.is_array() || c.size() != (m.wide ? 1 : m.rank - 2))
        fail(at, m.wide ? "an array of one integer (W)" : "an array of rank - 2 integers", c);
      for (size_t i = 0; i < c.size(); ++i)
        (key[0] == 'l' ? m.lower : m.upper)[i] = integer_at<int32_t>(c[i], at + "[" + std::to_string(i) + "]", -32768, 32767);
    }
    m.channels = integer_at<uint32_t>(j["channels_per_pixel"], path + ".channels_per_pixel", 1, 256);
    if (j.contains("pixels_per_column"))
      m.pixels = integer_at<uint32_t>(j["pixels_per_column"], path + ".pixels_per_column", 1, 1024);
  }
  const json none = json::array();
  const std::vector<uint64_t> strides =
      m.rank == 1 ? std::vector<uint64_t>{} : counts_at(j.contains("strides") ? j["strides"] : none, path + ".strides", m.rank - 1, m.rank - 1, UINT64_MAX);
  for (uint32_t i = 0; i < m.rank; ++i) m.dims[i] = dims[i], m.box[i] = static_cast<uint32_t>(box[i]);
  for (uint32_t i = 0; i + 1 < m.rank; ++i) m.strides[i] = strides[i];
  if (j.contains("element_strides")) {
    const std::vector<uint64_t> e = counts_at(j["element_strides"], path + ".element_strides", m.rank, m.rank, 8);
    for (uint32_t i = 0; i < m.rank; ++i) m.element_strides[i] = static_cast<uint32_t>(e[i]);
  }
  if (j.contains("interleave")) m.interleave = name_at<Interleave>(j["interleave"], path + ".interleave", {"none", "16B", "32B"});
  if (j.contains("swizzle"))
    m.swizzle = name_at<Swizzle>(j["swizzle"], path + ".swizzle",
                                 {"none", "32B", "64B", "128B", "128B_atom_32B", "128B_atom_32B_flip_8B", "128B_atom_64B"});
  if (j.contains("l2_promotion")) m.l2 = name_at<L2Promotion>(j["l2_promotion"], path + ".l2_promotion", {"none", "64B", "128B", "256B"});
  if (j.contains("oob_fill")) m.oob = name_at<OobFill>(j["oob_fill"], path + ".oob_fill", {"none", "nan_request_zero_fma"});
  a.tensormap = m;
}

bool bool_at(const json& j, const std::string& path) {
  if (!j.is_boolean()) fail(path, "true or false", j);
  return j.get<bool>();
}

float number_at(const json& j, const std::string& path) {
  if (!j.is_number()) fail(path, "a number", j);
  return j.get<float>();
}

// {"buffer": "img.npy", "channels": 4, "filter": "linear", ...}: a texture (or, `surface`, a
// surface) object over the buffer; the shape and channel format come from the .npy.
void texture_at(const json& j, const std::string& path, bool surface, ArgSpec& a) {
  if (!j.is_object()) fail(path, "an object with at least 'buffer'", j);
  std::vector<std::string> keys = {"buffer", "channels", "resource", "layered", "cubemap"};
  if (!surface)
    for (const char* k : {"mipmaps", "address_mode", "filter", "mipmap_filter", "read_mode", "normalized_coords", "srgb",
                          "border_color", "max_anisotropy", "mipmap_level_bias", "min_mipmap_level_clamp",
                          "max_mipmap_level_clamp", "seamless_cubemap", "exact_trilinear"})
      keys.push_back(k);
  only_keys(j, path, keys);
  if (!j.contains("buffer")) throw ManifestError(path + ": missing 'buffer'");
  TextureSpec t;
  t.surface = surface;
  a.buffer = string_at(j["buffer"], path + ".buffer");
  TextureResource& r = t.resource;
  if (j.contains("channels")) {
    const auto c = integer_at<uint8_t>(j["channels"], path + ".channels", 1, 4);
    if (c == 3) fail(path + ".channels", "1, 2 or 4", j["channels"]);
    r.channels = c;
  }
  if (j.contains("resource"))
    r.kind = name_at<TextureResource::Kind>(j["resource"], path + ".resource", {"array", "mipmapped_array", "linear", "pitch2d"});
  if (j.contains("layered")) r.layered = bool_at(j["layered"], path + ".layered");
  if (j.contains("cubemap")) r.cubemap = bool_at(j["cubemap"], path + ".cubemap");
  r.surface = surface;
  TextureSampler& s = t.sampler;
  if (j.contains("mipmaps")) {
    const json& m = j["mipmaps"];
    if (!m.is_array()) fail(path + ".mipmaps", "an array of .npy files, levels 1, 2, ...", m);
    for (size_t i = 0; i < m.size(); ++i) t.mipmaps.push_back(string_at(m[i], path + ".mipmaps[" + std::to_string(i) + "]"));
    r.kind = TextureResource::Kind::MipmappedArray;
    r.levels = uint32_t(t.mipmaps.size() + 1);
  }
  if (j.contains("address_mode")) {
    const json& m = j["address_mode"];
    if (!m.is_array() || m.empty() || m.size() > 3) fail(path + ".address_mode", "an array of 1 to 3 modes", m);
    for (size_t i = 0; i < 3; ++i)
      s.address[i] = name_at<AddressMode>(m[std::min(i, m.size() - 1)], path + ".address_mode[" + std::to_string(std::min(i, m.size() - 1)) + "]",
                                          {"wrap", "clamp", "mirror", "border"});
  }
  if (j.contains("filter")) s.filter = name_at<FilterMode>(j["filter"], path + ".filter", {"point", "linear"});
  if (j.contains("mipmap_filter")) s.mipmap_filter = name_at<FilterMode>(j["mipmap_filter"], path + ".mipmap_filter", {"point", "linear"});
  if (j.contains("read_mode"))
    s.read_as_integer = name_at<int>(j["read_mode"], path + ".read_mode", {"normalized_float", "element_type"}) == 1;
  if (j.contains("normalized_coords")) s.normalized_coordinates = bool_at(j["normalized_coords"], path + ".normalized_coords");
  if (j.contains("srgb")) s.srgb = bool_at(j["srgb"], path + ".srgb");
  if (j.contains("seamless_cubemap")) s.seamless_cubemap = bool_at(j["seamless_cubemap"], path + ".seamless_cubemap");
  if (j.contains("exact_trilinear")) s.exact_trilinear = bool_at(j["exact_trilinear"], path + ".exact_trilinear");
  if (j.contains("border_color")) {
    const json& c = j["border_color"];
    if (!c.is_array() || c.size() != 4) fail(path + ".border_color", "an array of 4 numbers (r, g, b, a)", c);
    for (size_t i = 0; i < 4; ++i) s.border_color[i] = number_at(c[i], path + ".border_color[" + std::to_string(i) + "]");
  }
  if (j.contains("max_anisotropy")) s.max_anisotropy = integer_at<uint32_t>(j["max_anisotropy"], path + ".max_anisotropy", 0, 16);
  if (j.contains("mipmap_level_bias")) s.mipmap_level_bias = number_at(j["mipmap_level_bias"], path + ".mipmap_level_bias");
  if (j.contains("min_mipmap_level_clamp")) s.min_mipmap_level_clamp = number_at(j["min_mipmap_level_clamp"], path + ".min_mipmap_level_clamp");
  if (j.contains("max_mipmap_level_clamp")) s.max_mipmap_level_clamp = number_at(j["max_mipmap_level_clamp"], path + ".max_mipmap_level_clamp");
  a.texture = t;
}

ArgSpec arg_at(const json& j, const std::string& path) {
  if (!j.is_object()) fail(path, "an object such as {\"u32\": 7} or {\"buffer\": \"a.npy\"}", j);
  std::vector<std::string> kinds = {"buffer", "bytes", "tensormap", "texture", "surface"};
  for (const auto& [k, _] : scalar_kinds()) kinds.push_back(k);
  std::vector<std::string> present;
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::find(kinds.begin(), kinds.end(), it.key()) != kinds.end()) present.push_back(it.key());
  if (present.size() > 1) throw ManifestError(path + ": both '" + present[0] + "' and '" + present[1] + "'; an argument has one kind");
  if (present.empty()) {
    only_keys(j, path, kinds);  // names a misspelt kind
    throw ManifestError(path + ": no argument kind (buffer, bytes, tensormap, texture, surface, u32, f32, ...)");
  }
  const std::string& kind = present[0];
  ArgSpec a;
  if (kind == "buffer") {
    only_keys(j, path, {"buffer", "output"});
    a.buffer = string_at(j["buffer"], path + ".buffer");
    if (j.contains("output")) a.output = string_at(j["output"], path + ".output");
  } else if (kind == "tensormap") {
    only_keys(j, path, {"tensormap", "output"});
    tensormap_at(j["tensormap"], path + ".tensormap", a);
    if (j.contains("output")) a.output = string_at(j["output"], path + ".output");
  } else if (kind == "texture" || kind == "surface") {
    only_keys(j, path, {kind, "output"});
    texture_at(j[kind], path + "." + kind, kind == "surface", a);
    if (j.contains("output")) a.output = string_at(j["output"], path + ".output");
  } else if (kind == "bytes") {
    only_keys(j, path, {"bytes", "align"});
    a.value.bytes = hex_at(j["bytes"], path + ".bytes");
    if (j.contains("align")) {
      auto align = integer_at<uint32_t>(j["align"], path + ".align", 1, 256);
      if (align & (align - 1)) fail(path + ".align", "a power of two from 1 to 256", j["align"]);
    }
  } else {
    only_keys(j, path, {kind});
    a.value = scalar_kinds().at(kind)(j[kind], path + "." + kind);
  }
  return a;
}

// Where a JSON syntax error is: "line 3, column 7".
std::string position(std::string_view text, size_t byte) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i + 1 < byte && i < text.size(); ++i, ++column)
    if (text[i] == '\n') ++line, column = 0;
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

}  // namespace

Manifest parse_manifest(std::string_view text) {
  json m;
  try {
    m = json::parse(text);
  } catch (const json::parse_error& e) {
    throw ManifestError("not valid JSON at " + position(text, e.byte));
  } catch (const json::out_of_range&) {  // a number literal beyond a double (1e400)
    throw ManifestError("not valid JSON: a number is out of range (beyond ±1.8e308)");
  }
  if (!m.is_object()) fail("the manifest", "an object", m);
  only_keys(m, "", {"ptx", "kernel", "grid", "block", "cluster", "non_portable_cluster", "shared_bytes", "model",
                    "threads", "cooperative", "timeout_s", "args"});
  for (const char* key : {"ptx", "kernel", "grid", "block"})
    if (!m.contains(key)) throw ManifestError(std::string("missing '") + key + "'");
  Manifest r;
  r.ptx = string_at(m["ptx"], "ptx");
  r.kernel = string_at(m["kernel"], "kernel");
  LaunchConfig& c = r.config;
  c.grid = dim3_at(m["grid"], "grid");
  c.block = dim3_at(m["block"], "block");
  if (m.contains("cluster")) {
    c.cluster = dim3_at(m["cluster"], "cluster");
    c.explicit_cluster = true;
  }
  if (m.contains("non_portable_cluster")) {
    if (!m["non_portable_cluster"].is_boolean()) fail("non_portable_cluster", "true or false", m["non_portable_cluster"]);
    c.non_portable_cluster = m["non_portable_cluster"].get<bool>();
  }
  if (m.contains("shared_bytes")) c.shared_bytes = integer_at<uint32_t>(m["shared_bytes"], "shared_bytes");
  if (m.contains("threads")) c.threads = integer_at<unsigned>(m["threads"], "threads", 1, 1024);
  if (m.contains("cooperative")) {
    if (!m["cooperative"].is_boolean()) fail("cooperative", "true or false", m["cooperative"]);
    c.cooperative = m["cooperative"].get<bool>();
  }
  if (m.contains("timeout_s")) {
    const json& t = m["timeout_s"];
    if (!t.is_number() || !(t.get<double>() > 0)) fail("timeout_s", "a positive number of seconds", t);
    c.watchdog_seconds = t.get<double>();
  }
  if (m.contains("model")) {  // the tensor-core arithmetic model
    if (m["model"] != "sm90" && m["model"] != "exact") fail("model", "\"sm90\" or \"exact\"", m["model"]);
    c.tensor_model = m["model"] == "exact" ? TensorModel::Exact : TensorModel::Sm90;
  }
  if (m.contains("args")) {
    if (!m["args"].is_array()) fail("args", "an array of argument objects", m["args"]);
    for (size_t i = 0; i < m["args"].size(); ++i) r.args.push_back(arg_at(m["args"][i], "args[" + std::to_string(i) + "]"));
  }
  return r;
}

}  // namespace ptxvm::tool
