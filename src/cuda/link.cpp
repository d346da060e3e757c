// The JIT linker (cuLinkCreate, cuLinkAddData, cuLinkAddFile, cuLinkComplete, cuLinkDestroy):
// ptxvm links PTX. The inputs join into one module — the newest .version among them, the first
// input's .target and .address_size, then every input's text after its header, less the .extern
// declarations of functions another input defines (one module may not do both, §11.6.1) — and
// the image cuLinkComplete hands out is that PTX text, which cuModuleLoadData loads. A fat binary
// gives the PTX of the best virtual architecture it holds; machine code (a cubin, an object, a
// library) cannot run.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "driver.h"
#include "fatbin.h"

struct CUlinkState_st {
  std::vector<std::string> inputs;  // PTX texts
  std::string image;                // the linked module, once complete
};

using namespace ptxvm::cuda;

namespace {

// The input's header directive `name` ("version", ...): its line, or "" when it has none.
std::string directive(const std::string& ptx, const char* name) {
  const std::string key = std::string(".") + name;
  for (size_t at = 0; (at = ptx.find(key, at)) != std::string::npos; at += key.size()) {
    const size_t line = ptx.rfind('\n', at) == std::string::npos ? 0 : ptx.rfind('\n', at) + 1;
    if (ptx.find_first_not_of(" \t", line) == at) return ptx.substr(at, ptx.find('\n', at) - at);
  }
  return {};
}

// The input without its header directives (each replaced by an empty line, so line numbers hold).
std::string body(std::string ptx) {
  for (const char* name : {"version", "target", "address_size"}) {
    const std::string d = directive(ptx, name);
    if (!d.empty()) ptx.replace(ptx.find(d), d.size(), "");
  }
  return ptx;
}

// The functions of `ptx`: for each `.func` declaration or definition, its name, where the
// declaration starts (its line) and ends (past its `;`, or at its body's `{`), whether it is
// .extern and whether it has a body.
struct FuncDecl {
  std::string name;
  size_t begin, end;
  bool external, defined;
};
std::vector<FuncDecl> functions(const std::string& ptx) {
  std::vector<FuncDecl> out;
  auto is_name = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%'; };
  for (size_t at = 0; (at = ptx.find(".func", at)) != std::string::npos; at += 5) {
    if (at + 5 < ptx.size() && is_name(ptx[at + 5])) continue;  // .funcs, not .func
    size_t line = ptx.rfind('\n', at);
    line = line == std::string::npos ? 0 : line + 1;
    const std::string lead = ptx.substr(line, at - line);
    if (lead.find_first_not_of(" \t.abcdefghijklmnopqrstuvwxyz") != std::string::npos) continue;  // not a declaration
    size_t i = ptx.find_first_not_of(" \t\r\n", at + 5);
    if (i != std::string::npos && ptx[i] == '(') i = ptx.find(')', i), i = i == std::string::npos ? i : i + 1;
    i = i == std::string::npos ? i : ptx.find_first_not_of(" \t\r\n", i);
    size_t j = i;
    while (j != std::string::npos && j < ptx.size() && is_name(ptx[j])) ++j;
    if (i == std::string::npos || j == i) continue;
    const size_t stop = ptx.find_first_of(";{", j);
    if (stop == std::string::npos) continue;
    out.push_back({ptx.substr(i, j - i), line, stop + 1, lead.find(".extern") != std::string::npos, ptx[stop] == '{'});
  }
  return out;
}

// "8.7" -> 87, so that versions compare.
int version_number(const std::string& line) {
  unsigned major = 0, minor = 0;
  std::sscanf(line.c_str(), ".version %u.%u", &major, &minor);
  return static_cast<int>(major * 10 + minor);
}

CUresult add(CUlinkState state, CUjitInputType type, const void* data, size_t size) {
  if (!state || !data) return CUDA_ERROR_INVALID_VALUE;
  switch (type) {
  case CU_JIT_INPUT_PTX:
    state->inputs.emplace_back(static_cast<const char*>(data), strnlen(static_cast<const char*>(data), size));
    return CUDA_SUCCESS;
  case CU_JIT_INPUT_FATBINARY: {
    std::string why;
    std::string ptx = fatbin_ptx(data, static_cast<unsigned>(driver().config.major * 10 + driver().config.minor), why);
    if (ptx.empty()) {
      std::fprintf(stderr, "ptxvm: %s\n", why.c_str());
      return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    state->inputs.push_back(std::move(ptx));
    return CUDA_SUCCESS;
  }
  default:
    std::fprintf(stderr, "ptxvm: the JIT linker takes PTX and fat binaries holding PTX; a cubin, object or "
                         "library holds machine code, which ptxvm cannot run\n");
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  }
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuLinkCreate(unsigned, CUjit_option*, void**, CUlinkState* state) {
  if (!state) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  *state = new CUlinkState_st;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLinkAddData(CUlinkState state, CUjitInputType type, void* data, size_t size, const char*, unsigned,
                               CUjit_option*, void**) {
  return add(state, type, data, size);
}

CUresult CUDAAPI cuLinkAddFile(CUlinkState state, CUjitInputType type, const char* path, unsigned, CUjit_option*,
                               void**) {
  if (!state || !path) return CUDA_ERROR_INVALID_VALUE;
  std::string bytes;
  if (!read_file(path, bytes)) return CUDA_ERROR_FILE_NOT_FOUND;
  return add(state, type, bytes.c_str(), bytes.size() + 1);
}

CUresult CUDAAPI cuLinkComplete(CUlinkState state, void** image, size_t* size) {
  if (!state || !image) return CUDA_ERROR_INVALID_VALUE;
  if (state->inputs.empty()) return CUDA_ERROR_INVALID_VALUE;
  std::string version = directive(state->inputs[0], "version");
  for (const std::string& in : state->inputs)
    if (version_number(directive(in, "version")) > version_number(version)) version = directive(in, "version");
  state->image = version + "\n" + directive(state->inputs[0], "target") + "\n" +
                 directive(state->inputs[0], "address_size") + "\n";
  std::vector<std::string> defined;
  for (const std::string& in : state->inputs)
    for (const FuncDecl& f : functions(in))
      if (f.defined) defined.push_back(f.name);
  for (const std::string& in : state->inputs) {
    std::string text = body(in);
    const std::vector<FuncDecl> decls = functions(text);
    for (auto f = decls.rbegin(); f != decls.rend(); ++f)  // from the end: earlier offsets stay
      if (f->external && !f->defined && std::find(defined.begin(), defined.end(), f->name) != defined.end())
        text.replace(f->begin, f->end - f->begin, std::string(static_cast<size_t>(std::count(text.begin() + f->begin, text.begin() + f->end, '\n')), '\n'));
    state->image += text + "\n";
  }
  *image = state->image.data();
  if (size) *size = state->image.size() + 1;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLinkDestroy(CUlinkState state) {
  if (!state) return CUDA_ERROR_INVALID_HANDLE;
  delete state;
  return CUDA_SUCCESS;
}

}  // extern "C"
