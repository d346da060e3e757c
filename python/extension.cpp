// The nanobind extension `ptxvm._ptxvm`: a thin layer over the C++ API (include/ptxvm/ptxvm.h).
// The Python package (python/ptxvm/__init__.py) turns arrays, tensors and scalars into the bytes
// of kernel arguments; here memory moves as buffers and arguments as bytes.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <stdexcept>

#include "ptxvm/ptxvm.h"
#include "units/tma/tensor_map.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace {

// The bytes of a Python object with the buffer protocol (bytes, bytearray, memoryview, NumPy).
struct Bytes {
  Py_buffer view{};
  explicit Bytes(nb::handle o, bool writable = false) {
    if (PyObject_GetBuffer(o.ptr(), &view, (writable ? PyBUF_WRITABLE : PyBUF_SIMPLE) | PyBUF_C_CONTIGUOUS) != 0)
      throw nb::python_error();
  }
  ~Bytes() { PyBuffer_Release(&view); }
  Bytes(const Bytes&) = delete;
  Bytes& operator=(const Bytes&) = delete;
};

ptxvm::Dim3 dim3(const std::vector<uint32_t>& v, const char* what) {
  if (v.empty() || v.size() > 3) throw std::invalid_argument(std::string(what) + " takes 1 to 3 sizes");
  ptxvm::Dim3 d;
  d.x = v[0];
  if (v.size() > 1) d.y = v[1];
  if (v.size() > 2) d.z = v[2];
  return d;
}

}  // namespace

NB_MODULE(_ptxvm, m) {
  m.doc() = "ptxvm's C++ API (use the `ptxvm` package)";
  // Modules and devices live in caches (Triton's, the package's default device) until the
  // interpreter exits, which is no leak.
  nb::set_leak_warnings(false);

  // A tensor map in ptxvm's encoding, from cuTensorMapEncodeTiled's arguments (CUDA's enumeration
  // values; dims innermost first, strides in bytes); ValueError names the rule a bad map breaks.
  m.def(
      "encode_tensor_map",
      [](unsigned type, uint64_t address, const std::vector<uint64_t>& dims, const std::vector<uint64_t>& strides,
         const std::vector<uint32_t>& box, const std::vector<uint32_t>& element_strides, unsigned interleave,
         unsigned swizzle, unsigned l2, unsigned oob, const std::vector<int32_t>& lower,
         const std::vector<int32_t>& upper, uint32_t channels, uint32_t pixels) {
        namespace tma = ptxvm::units::tma;
        tma::TensorMap t;
        if (dims.empty() || dims.size() > 5 || strides.size() + 1 != dims.size() || box.size() != dims.size() ||
            element_strides.size() != dims.size())
          throw std::invalid_argument("a tensor map has 1 to 5 dims, one box size and element stride each, and "
                                      "rank - 1 strides");
        t.type = static_cast<tma::DataType>(type);
        t.rank = static_cast<uint32_t>(dims.size());
        t.address = address;
        for (size_t i = 0; i < dims.size(); ++i) t.dims[i] = dims[i], t.box[i] = box[i], t.element_strides[i] = element_strides[i];
        for (size_t i = 0; i < strides.size(); ++i) t.strides[i] = strides[i];
        t.interleave = static_cast<tma::Interleave>(interleave);
        t.swizzle = static_cast<tma::Swizzle>(swizzle);
        t.l2 = static_cast<tma::L2Promotion>(l2);
        t.oob = static_cast<tma::OobFill>(oob);
        // an im2col map (cuTensorMapEncodeIm2col): the pixel box's corners in the spatial dims
        if (!lower.empty() || !upper.empty()) {
          if (lower.size() != upper.size() || lower.size() + 2 != dims.size())
            throw std::invalid_argument("an im2col tensor map has rank - 2 lower and upper corner offsets");
          t.im2col = true;
          for (size_t i = 0; i < lower.size(); ++i) t.lower[i] = lower[i], t.upper[i] = upper[i];
          t.channels = channels;
          t.pixels = pixels;
        }
        if (std::string why = tma::validate(t); !why.empty()) throw std::invalid_argument("tensor map: " + why);
        const auto bytes = tma::encode(t);
        return nb::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
      },
      "type"_a, "address"_a, "dims"_a, "strides"_a, "box"_a, "element_strides"_a, "interleave"_a, "swizzle"_a,
      "l2"_a, "oob"_a, "lower"_a = std::vector<int32_t>{}, "upper"_a = std::vector<int32_t>{}, "channels"_a = 0,
      "pixels"_a = 0);

  nb::class_<ptxvm::Module>(m, "Module")
      .def("kernels", &ptxvm::Module::kernels)
      .def("params",
           [](const ptxvm::Module& mod, const std::string& kernel) {
             std::vector<std::tuple<std::string, uint32_t, uint32_t>> out;
             for (const ptxvm::KernelParam& p : mod.params(kernel)) out.emplace_back(p.name, p.size, p.align);
             return out;
           })
      .def(
          "launch",
          [](ptxvm::Module& mod, const std::string& kernel, const std::vector<uint32_t>& grid,
             const std::vector<uint32_t>& block, const std::vector<nb::bytes>& args, const std::vector<uint32_t>& cluster,
             uint32_t shared_bytes, unsigned threads, uint64_t step_limit, bool exact, bool cooperative,
             bool progress, const std::string& checks) {
            ptxvm::LaunchConfig c;
            std::string unknown;
            const std::optional<ptxvm::Checks> named = ptxvm::Checks::parse(checks, &unknown);
            if (!named) throw nb::value_error(unknown.c_str());
            c.checks = *named;
            c.grid = dim3(grid, "grid");
            c.block = dim3(block, "block");
            if (!cluster.empty()) c.cluster = dim3(cluster, "cluster"), c.explicit_cluster = true;
            c.shared_bytes = shared_bytes;
            c.threads = threads;
            c.step_limit = step_limit;
            c.cooperative = cooperative;
            c.progress = progress;
            c.tensor_model = exact ? ptxvm::TensorModel::Exact : ptxvm::TensorModel::Sm90;
            std::vector<ptxvm::KernelArg> a(args.size());
            for (size_t i = 0; i < args.size(); ++i) {
              const auto* p = static_cast<const uint8_t*>(args[i].data());
              a[i].bytes.assign(p, p + args[i].size());
            }
            ptxvm::LaunchResult r;
            {
              nb::gil_scoped_release release;  // the launch runs on host threads of its own
              r = mod.launch(kernel, c, a);
            }
            // The checks' findings: (check, kind, PTX line, source file, source line, text) each.
            std::vector<std::tuple<std::string, std::string, uint32_t, std::string, uint32_t, std::string>> reports;
            for (const ptxvm::CheckReport& x : r.reports)
              reports.emplace_back(x.check, x.kind, x.site.line, x.site.source_file, x.site.source_line,
                                   x.render(mod.name()));
            return std::make_tuple(r.ok, r.error, r.output, r.guest_fault, reports);
          },
          "kernel"_a, "grid"_a, "block"_a, "args"_a, "cluster"_a, "shared_bytes"_a, "threads"_a, "step_limit"_a,
          "exact"_a, "cooperative"_a, "progress"_a, "checks"_a);

  nb::class_<ptxvm::Device>(m, "Device")
      .def(nb::init<>())
      .def(
          "create_texture",  // a texture (or, `surface`, surface) object over device memory (PTX §5.3)
          [](ptxvm::Device& d, uint64_t address, uint64_t bytes, int format, int channels, uint32_t width,
             uint32_t height, uint32_t depth, bool layered, bool cubemap, bool surface, std::vector<int> address_mode,
             int filter, bool read_as_integer, bool normalized, bool srgb, std::vector<float> border) {
            ptxvm::TextureResource r;
            r.format = ptxvm::ChannelFormat(format);
            r.channels = uint8_t(channels);
            r.width = width, r.height = height, r.depth = depth;
            r.layered = layered, r.cubemap = cubemap, r.surface = surface;
            r.address = address, r.bytes = bytes;
            r.pitch = uint64_t(width) * ptxvm::channel_bytes(r.format) * r.channels;
            if (surface) return d.create_surface(r);
            ptxvm::TextureSampler s;
            for (size_t i = 0; i < 3 && i < address_mode.size(); ++i) s.address[i] = ptxvm::AddressMode(address_mode[i]);
            s.filter = ptxvm::FilterMode(filter);
            s.read_as_integer = read_as_integer;
            s.normalized_coordinates = normalized;
            s.srgb = srgb;
            for (size_t i = 0; i < 4 && i < border.size(); ++i) s.border_color[i] = border[i];
            return d.create_texture(r, s);
          },
          "address"_a, "bytes"_a, "format"_a, "channels"_a, "width"_a, "height"_a, "depth"_a, "layered"_a,
          "cubemap"_a, "surface"_a, "address_mode"_a, "filter"_a, "read_as_integer"_a, "normalized"_a, "srgb"_a,
          "border"_a)
      .def("destroy_object", &ptxvm::Device::destroy_object, "handle"_a)
      .def("malloc", &ptxvm::Device::malloc, "bytes"_a)
      .def("free", &ptxvm::Device::free, "address"_a)
      .def(
          "set_host_memory_resolver",
          [](ptxvm::Device& d, nb::object resolver) {
            if (resolver.is_none()) return d.set_host_memory_resolver({});
            // called from the launch's host threads, which hold no GIL
            d.set_host_memory_resolver([resolver = std::make_shared<nb::object>(resolver)](uint64_t address) {
              nb::gil_scoped_acquire gil;
              try {
                return nb::cast<bool>((*resolver)(address));
              } catch (nb::python_error& e) {
                e.discard_as_unraisable("ptxvm's host memory resolver");
                return false;
              }
            });
          },
          "resolver"_a.none())
      .def(
          "adopt",
          [](ptxvm::Device& d, nb::handle buffer) {  // the package keeps `buffer` alive and unresized
            Bytes b(buffer, true);
            return d.adopt(b.view.buf, static_cast<size_t>(b.view.len));
          },
          "buffer"_a)
      .def(
          "write",
          [](ptxvm::Device& d, uint64_t address, nb::handle buffer) {
            Bytes b(buffer);
            d.copy_to_device(address, b.view.buf, static_cast<size_t>(b.view.len));
          },
          "address"_a, "buffer"_a)
      .def(
          "read",
          [](ptxvm::Device& d, uint64_t address, nb::handle buffer) {
            Bytes b(buffer, true);
            d.copy_to_host(b.view.buf, address, static_cast<size_t>(b.view.len));
          },
          "address"_a, "buffer"_a)
      .def(
          "load",
          [](ptxvm::Device& d, const std::string& ptx, const std::string& name) {
            std::string diags;
            std::unique_ptr<ptxvm::Module> mod = d.load_module(ptx, name, &diags);
            if (!mod) throw std::runtime_error(diags);  // the package raises LoadError
            return mod;
          },
          "ptx"_a, "name"_a, nb::keep_alive<0, 1>());  // a module keeps its device alive
}
