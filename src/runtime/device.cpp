// The public API (include/ptxvm/ptxvm.h) over the stages: check ▶ lower ▶ exec.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "check/check.h"
#include "exec/engine.h"
#include "mem/device_heap.h"
#include "lower/lower.h"
#include "runtime/launch_limits.h"
#include "ptxvm/ptxvm.h"

namespace ptxvm {

struct Device::Impl {
  mem::GlobalMemory global;
  texture::Objects textures;
  mem::DeviceHeap heap;  // device-side malloc and free
};

struct Module::Impl {
  Device::Impl* device;
  std::unique_ptr<SourceFile> source;
  program::Program program;
  uint64_t constants_address = 0;  // the constant bank's, once it is device memory
  ~Impl() {
    if (constants_address) device->global.free(constants_address);
  }
};

namespace {

// "ptxvm: kernel 'k': done / total CTAs" on stderr, redrawn a few times a second from a second
// after the launch starts until it ends, then erased.
class ProgressLine {
public:
  ProgressLine(const std::string& kernel, uint64_t total, exec::Launch& l) : kernel_(kernel), total_(total) {
    l.ctas_done = &done_;
    thread_ = std::thread([this] { draw(); });
  }
  ~ProgressLine() {
    {
      std::lock_guard lock(mutex_);
      over_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }

private:
  void draw() {
    std::unique_lock lock(mutex_);
    if (wake_.wait_for(lock, std::chrono::seconds(1), [this] { return over_; })) return;
    bool drawn = false;
    do {
      std::fprintf(stderr, "\rptxvm: kernel '%s': %llu / %llu CTAs", kernel_.c_str(),
                   static_cast<unsigned long long>(done_.load()), static_cast<unsigned long long>(total_));
      std::fflush(stderr);
      drawn = true;
    } while (!wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return over_; }));
    if (drawn) std::fprintf(stderr, "\r\033[K");
  }

  std::string kernel_;
  uint64_t total_;
  std::atomic<uint64_t> done_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool over_ = false;
  std::thread thread_;
};

}  // namespace

Module::Module(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Module::~Module() = default;

std::optional<Module::Variable> Module::variable(std::string_view name) {
  auto it = impl_->program.variables.find(std::string(name));
  if (it == impl_->program.variables.end()) return std::nullopt;
  const program::Variable& v = it->second;
  if (v.space != mem::Space::Const) return Variable{v.address, v.size};
  std::vector<uint8_t>& bank = impl_->program.constants.bytes;  // not empty: it holds the variable
  if (!impl_->constants_address) impl_->constants_address = impl_->device->global.adopt(bank.data(), bank.size());
  return Variable{impl_->constants_address + v.address, v.size};
}

const std::string& Module::name() const { return impl_->program.source_name; }

bool Module::has_kernel(std::string_view name) const {
  const program::Function* f = impl_->program.find(std::string(name));
  return f && f->is_entry && f->defined;
}

std::vector<std::string> Module::kernels() const {
  std::vector<std::string> names;
  for (const program::Function& f : impl_->program.functions)
    if (f.is_entry && f.defined) names.push_back(f.name);
  return names;
}

std::vector<KernelParam> Module::params(std::string_view name) const {
  std::vector<KernelParam> out;
  const program::Function* f = impl_->program.find(std::string(name));
  if (f && f->is_entry && f->defined)
    for (const program::Param& p : f->params) out.push_back({p.name, p.size, p.align});
  return out;
}

uint32_t Module::static_shared_bytes(std::string_view name) const {
  const program::Function* f = impl_->program.find(std::string(name));
  return f && f->is_entry && f->defined ? f->shared_bytes : 0;
}

uint32_t Module::max_threads(std::string_view name) const {
  const program::Function* f = impl_->program.find(std::string(name));
  if (!f || !f->is_entry || !f->defined) return 0;
  if (!f->max_ntid[0]) return 1024;
  return f->max_ntid[0] * std::max(f->max_ntid[1], 1u) * std::max(f->max_ntid[2], 1u);
}

uint32_t Module::constant_bytes() const { return static_cast<uint32_t>(impl_->program.constants.bytes.size()); }

uint32_t Module::local_bytes(std::string_view name) const {
  const program::Function* f = impl_->program.find(std::string(name));
  return f && f->is_entry && f->defined ? f->local_size : 0;
}

std::string Module::check_launch(std::string_view name, const LaunchConfig& config,
                                 const std::vector<KernelArg>& args) const {
  const program::Function* f = impl_->program.find(std::string(name));
  if (!f || !f->is_entry || !f->defined)
    return "no kernel named '" + std::string(name) + "' in " + impl_->program.source_name;
  if (args.size() != f->params.size())
    return "kernel '" + f->name + "' takes " + std::to_string(f->params.size()) + " arguments, " +
           std::to_string(args.size()) + " given";
  for (size_t i = 0; i < args.size(); ++i) {
    const program::Param& p = f->params[i];
    if (args[i].bytes.size() != p.size)
      return "argument " + std::to_string(i) + " ('" + p.name + "') of kernel '" + f->name + "' is " +
             std::to_string(p.size) + " bytes; " + std::to_string(args[i].bytes.size()) + " given";
  }
  if (std::string why = runtime::check_launch_limits(impl_->program, *f, config); !why.empty()) return why;
  // Beyond CUDA's limits, ptxvm's: they keep a hostile module or manifest from exhausting host memory.
  constexpr uint64_t kMaxLocalPerThread = 512 * 1024;
  if (impl_->program.local_bytes > kMaxLocalPerThread)
    return "a thread may use at most " + std::to_string(kMaxLocalPerThread) +
           " bytes of local memory; the module declares " + std::to_string(impl_->program.local_bytes);
  // As on the GPU, a cooperative grid must fit on the device at once (here: resident CTAs).
  constexpr uint64_t kMaxCooperativeCtas = 1024;
  uint64_t ctas = uint64_t{config.grid.x} * config.grid.y * config.grid.z;
  if (config.cooperative && ctas > kMaxCooperativeCtas)
    return "a cooperative launch holds at most " + std::to_string(kMaxCooperativeCtas) + " CTAs; " +
           std::to_string(ctas) + " requested";
  return {};
}

LaunchResult Module::launch(std::string_view name, const LaunchConfig& config,
                            const std::vector<KernelArg>& args) {
  LaunchResult r;
  r.error = check_launch(name, config, args);
  if (!r.error.empty()) return r;
  const program::Function* f = impl_->program.find(std::string(name));
  uint64_t ctas = uint64_t{config.grid.x} * config.grid.y * config.grid.z;
  exec::Launch l;
  l.cooperative = config.cooperative;
  l.program = &impl_->program;
  l.kernel = f;
  l.grid = {config.grid.x, config.grid.y, config.grid.z};
  l.block = {config.block.x, config.block.y, config.block.z};
  // The cluster (§2.2.2): the launch's, else the one the kernel requires (.reqnctapercluster,
  // check_launch_limits made sure they agree), else clusters of one CTA.
  const uint32_t* req = f->req_cluster;
  l.cluster = {config.cluster.x, config.cluster.y, config.cluster.z};
  if (l.cluster.count() == 1 && (req[0] || req[1] || req[2]))
    l.cluster = {std::max(req[0], 1u), std::max(req[1], 1u), std::max(req[2], 1u)};
  l.explicit_cluster = config.explicit_cluster || l.cluster.count() > 1 || req[0] || req[1] || req[2] || f->explicit_cluster;
  l.dynamic_shared = config.shared_bytes;
  l.threads = config.threads ? config.threads : std::max(1u, std::thread::hardware_concurrency());
  l.global = &impl_->device->global;
  l.heap = &impl_->device->heap;
  l.textures = &impl_->device->textures;
  l.step_limit = config.step_limit;
  l.watchdog_seconds = config.watchdog_seconds;
  l.cancel = config.cancel;
  l.tensor_model = config.tensor_model == TensorModel::Exact ? mma::Model::Exact : mma::Model::Sm90;
  l.params.bytes.assign(f->param_bytes, 0);
  for (size_t i = 0; i < args.size(); ++i)
    if (f->params[i].size) std::memcpy(l.params.bytes.data() + f->params[i].offset, args[i].bytes.data(), f->params[i].size);
  // Host memory: one CTA's state, and a cooperative grid's, must stay within reason.
  constexpr uint64_t kMaxCtaBytes = uint64_t{1} << 30, kMaxCooperativeBytes = uint64_t{4} << 30;
  uint64_t footprint = exec::cta_footprint(l);
  if (footprint > kMaxCtaBytes || (config.cooperative && footprint * ctas > kMaxCooperativeBytes)) {
    r.error = "the launch needs " + std::to_string(footprint >> 20) + " MiB of host memory per CTA" +
              (config.cooperative ? " with all " + std::to_string(ctas) + " CTAs resident" : std::string()) +
              " (registers, shared and local memory); more than ptxvm allows";
    return r;
  }
  // A cooperative launch gets a zeroed grid-synchronisation workspace, whose address CUDA's
  // cooperative groups read from %envreg1 (high half) and %envreg2 (low half), as the driver
  // provides it; elsewhere they are 0 and grid.sync() traps, as on the GPU.
  uint64_t workspace = 0;
  if (config.cooperative) {
    workspace = impl_->device->global.allocate(256);
    l.envreg[1] = static_cast<uint32_t>(workspace >> 32);
    l.envreg[2] = static_cast<uint32_t>(workspace);
  }
  l.output = &r.output;
  // The checks: the launch's, else those PTXVM_CHECK names (for programs that cannot ask: the
  // driver, Triton), whose reports then go to stderr as well.
  Checks checks = config.checks;
  const char* env = std::getenv("PTXVM_CHECK");
  const bool from_env = !checks.any() && env && *env;
  if (from_env) {
    std::string why;
    const std::optional<Checks> named = Checks::parse(env, &why);
    if (!named) {
      r.error = "PTXVM_CHECK: " + why;
      return r;
    }
    checks = *named;
  }
  std::optional<sanitize::Session> sanitizer;
  if (checks.any()) {
    const uint32_t block[3] = {l.block.x, l.block.y, l.block.z};
    l.sanitizer = &sanitizer.emplace(checks, impl_->program, *f, block);
  }
  std::optional<ProgressLine> progress;
  if (config.progress) progress.emplace(f->name, ctas, l);
  auto fault = exec::run(l);
  progress.reset();
  if (workspace) impl_->device->global.free(workspace);
  if (sanitizer) r.reports = sanitizer->reports();
  if (from_env)
    for (const CheckReport& c : r.reports) std::fputs(c.render(impl_->program.source_name).c_str(), stderr);
  if (fault) {
    r.error = fault->render(impl_->program.source_name);
    r.guest_fault = !fault->interrupted;
    r.interrupted = fault->interrupted;
    return r;
  }
  r.ok = true;
  return r;
}

Device::Device() : impl_(std::make_unique<Impl>()) {}
Device::~Device() = default;

uint64_t Device::malloc(size_t bytes) { return impl_->global.allocate(bytes, 256, false); }  // undefined until written
uint64_t Device::adopt(void* host, size_t bytes) { return impl_->global.adopt(static_cast<uint8_t*>(host), bytes); }
void Device::place_at_host_addresses() { impl_->global.place_at_host_addresses(); }
void Device::set_host_memory_resolver(std::function<bool(uint64_t)> resolver) {
  impl_->global.set_resolver(std::move(resolver));
}
void Device::free(uint64_t address) {
  // a block of the device-side heap is the guest's to free (CUDA: cudaFree of it is an error)
  if (impl_->heap.owns(address)) throw std::invalid_argument("a block of the device-side malloc heap");
  impl_->global.free(address);
}
uint64_t Device::malloc_heap_size() const { return impl_->heap.limit(); }
void Device::set_malloc_heap_size(uint64_t bytes) { impl_->heap.set_limit(bytes); }
uint64_t Device::malloc_heap_used() const { return impl_->heap.used(); }
void* Device::host_pointer(uint64_t address, size_t bytes) {
  impl_->global.define(address, bytes);  // the caller may write through it
  return impl_->global.find(address, bytes);
}

namespace {
texture::Object checked(texture::Object::Kind kind, const TextureResource& r, const TextureSampler& s) {
  if (kind != texture::Object::Kind::Sampler)
    if (std::string why = texture::validate(r); !why.empty()) throw std::invalid_argument(why);
  return {kind, r, s};
}
}  // namespace

uint64_t Device::create_texture(const TextureResource& resource, const TextureSampler& sampler) {
  return impl_->textures.add(checked(texture::Object::Kind::Texture, resource, sampler));
}
uint64_t Device::create_sampler(const TextureSampler& sampler) {
  return impl_->textures.add(checked(texture::Object::Kind::Sampler, {}, sampler));
}
uint64_t Device::create_surface(const TextureResource& resource) {
  return impl_->textures.add(checked(texture::Object::Kind::Surface, resource, {}));
}
void Device::destroy_object(uint64_t handle) {
  if (!impl_->textures.remove(handle)) throw std::invalid_argument("no texture, sampler or surface object " + std::to_string(handle));
}

void Device::copy_to_device(uint64_t dst, const void* src, size_t bytes) {
  uint8_t* p = impl_->global.find(dst, bytes);
  if (!p) throw std::out_of_range("copy_to_device: destination is not inside one allocation");
  std::memcpy(p, src, bytes);
  impl_->global.define(dst, bytes);
}

void Device::copy_to_host(void* dst, uint64_t src, size_t bytes) {
  uint8_t* p = impl_->global.find(src, bytes);
  if (!p) throw std::out_of_range("copy_to_host: source is not inside one allocation");
  std::memcpy(dst, p, bytes);
}

std::unique_ptr<Module> Device::load_module(std::string_view ptx, const std::string& name,
                                            std::string* diagnostics, bool optimize) {
  auto impl = std::make_unique<Module::Impl>();
  impl->device = impl_.get();
  impl->source = std::make_unique<SourceFile>(name, std::string(ptx));
  Diagnostics diags(*impl->source);
  std::optional<ast::Module> m = check::check_source(*impl->source, diags);
  std::optional<program::Program> program;
  if (m) program = lower::lower_module(*m, *impl->source, impl_->global, diags, optimize);
  if (diagnostics) *diagnostics = diags.render();
  if (!program) return nullptr;
  impl->program = std::move(*program);
  return std::unique_ptr<Module>(new Module(std::move(impl)));
}

}  // namespace ptxvm
