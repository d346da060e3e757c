// The drop-in CUDA driver (libcuda.so.1) over ptxvm's public API: the objects behind the Driver
// API's handles and the state they share. One ptxvm::Device holds every allocation, so device
// pointers are unified (host memory adopted at its own address, as CUDA's unified addressing has
// it); launches run at once, in the calling thread's order, so every stream is synchronous.
#pragma once

#include <cuda.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ptxvm/ptxvm.h"

struct CUfunc_st;

// A context: the device it belongs to and what libraries stored in it (the runtime's
// context-local storage, docs/driver/CudartPrivateInterface.md §2.4).
struct CUctx_st {
  CUdevice device = 0;
  unsigned flags = 0;
  struct Stored {
    void* data;
    void (*destroy)(CUcontext, void*, void*);
  };
  std::map<void*, Stored> stored;
  std::vector<CUcontext> peers;  // cuCtxEnablePeerAccess's
};

// A loaded module and its kernels (the same objects serve as CUfunction and CUkernel).
struct CUmod_st {
  std::unique_ptr<ptxvm::Module> module;
  std::map<std::string, std::unique_ptr<CUfunc_st>> functions;
};

struct CUfunc_st {
  CUmod_st* module;
  std::string name;
  std::vector<ptxvm::KernelParam> params;
  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES as set; -1 until set, when it is what the 48 KiB
  // of a launch without opt-in leave beside the static shared memory (max_dynamic_shared_bytes)
  int max_dynamic_shared = -1;
  int cluster[3] = {0, 0, 0};          // CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_*
  bool non_portable_cluster = false;
  int max_dynamic_shared_bytes() const;
};

struct CUlib_st {
  CUmod_st* module;
};

struct CUgraph_st;
struct CUgraphNode_st;
namespace ptxvm::cuda {
struct ConditionalHandle;  // conditional.h
}

// The memory of a graph's allocation node (graph.cpp): reserved when the node is added, at an
// address that "remains fixed across instantiations and launches" (cuGraphAddMemAllocNode), and
// valid (device memory) only from the node's run until it is freed. The reservation lasts while a
// graph, an executable graph or the live allocation holds it.
struct GraphMemory {
  void* host;
  size_t bytes;
  bool live = false;  // adopted by the device: between the alloc node's run and its free
  explicit GraphMemory(size_t bytes);
  ~GraphMemory();
  uint64_t address() const { return reinterpret_cast<uintptr_t>(host); }
};

// A memory pool (pool.cpp): its properties and attributes, and the bytes its allocations hold.
// Memory freed to a pool goes back at once, so what it reserves is what it uses.
struct CUmemPoolHandle_st {
  CUmemPoolProps props{};
  int reuse[3] = {1, 1, 1};  // CU_MEMPOOL_ATTR_REUSE_* (follow event dependencies, opportunistic, internal)
  cuuint64_t threshold = 0;  // CU_MEMPOOL_ATTR_RELEASE_THRESHOLD
  cuuint64_t used = 0, used_high = 0, reserved_high = 0;
};

struct CUstream_st {
  unsigned flags = 0;
  int priority = 0;
  CUgraph_st* capture = nullptr;  // the graph stream capture records into (cuStreamBeginCapture)
  std::vector<CUgraphNode_st*> tail;  // while capturing: what the stream's next node depends on
  // cuStreamSetAttribute's access policy window, synchronization policy and memory sync domain
  // and map (stream.cpp; the priority is `priority`)
  CUaccessPolicyWindow window{};
  CUsynchronizationPolicy sync_policy = CU_SYNC_POLICY_AUTO;
  CUlaunchMemSyncDomainMap domain_map{0, 1};
  CUlaunchMemSyncDomain domain = CU_LAUNCH_MEM_SYNC_DOMAIN_DEFAULT;
};

// A node of a graph (graph.cpp): what it does when the graph is launched.
struct CUgraphNode_st {
  CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
  CUfunc_st* function = nullptr;  // a kernel, its launch and its arguments' bytes
  ptxvm::LaunchConfig config;
  std::vector<ptxvm::KernelArg> args;
  CUDA_MEMCPY3D copy{};           // a copy
  CUDA_MEMSET_NODE_PARAMS set{};  // a memset
  CUDA_HOST_NODE_PARAMS host{};   // a host function
  // a child graph: the node's own graph (cuGraphChildGraphNodeGetGraph), and in an executable
  // graph copies of its nodes in the order they run
  std::shared_ptr<CUgraph_st> embedded;
  std::vector<CUgraphNode_st> child;
  CUevent event = nullptr;                      // an event record or wait node's event
  CUDA_MEM_ALLOC_NODE_PARAMS alloc{};           // a memory allocation (accessDescs: into access)
  std::vector<CUmemAccessDesc> access;
  std::shared_ptr<GraphMemory> memory;          // its memory
  CUdeviceptr freed = 0;                        // a memory free: the address
  // a conditional node (conditional.h): its parameters, its body graphs, which it owns
  // (phGraph_out points at body_graphs), and in an executable graph copies of their nodes
  CUDA_CONDITIONAL_NODE_PARAMS conditional{};
  std::vector<std::shared_ptr<CUgraph_st>> bodies;
  std::vector<CUgraph_st*> body_graphs;
  std::vector<std::vector<CUgraphNode_st>> branches;
  std::vector<CUgraphNode_st*> dependencies;
  std::vector<CUgraphEdgeData> edge_data;  // per dependency; zeroed (a full dependency) past its end
  CUgraph_st* graph = nullptr;             // the graph it belongs to
  std::vector<void*> arg_pointers;  // cuGraphKernelNodeGetParams's kernelParams, into args
  std::map<int, CUkernelNodeAttrValue> attributes;  // cuGraphKernelNodeSetAttribute's
};

// A graph: its nodes in the order they were added (cuGraphAddDependencies may make a node depend
// on a later one; an executable graph runs them in an order that follows every dependency).
struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;
  bool invalidated = false;             // a capture that met an operation it cannot hold
  CUstream origin = nullptr;            // while capturing: the stream that began the capture
  std::vector<CUstream> streams;        // and every stream that joined it (cuStreamWaitEvent)
  std::map<CUgraphNode, CUgraphNode> clones;  // cuGraphClone's: the original's node -> this one's
  long borrowed = -1;  // cuStreamBeginCaptureToGraph's graph while captured into: its nodes before
  // Conditional nodes (conditional.h): the handles made for this graph, the conditional node whose
  // body this graph is, and the one executable graph a graph with conditional nodes may have.
  std::vector<std::shared_ptr<ptxvm::cuda::ConditionalHandle>> handles;
  CUgraphNode_st* owner = nullptr;
  CUgraphNode_st* embedder = nullptr;  // the child graph node this graph is the graph of
  CUgraph_st* parent = nullptr;
  CUgraphExec_st* instance = nullptr;
};

// An executable graph: the nodes, copied at instantiation, and the graph's nodes they copy.
struct CUgraphExec_st {
  std::vector<CUgraphNode_st> nodes;
  std::vector<CUgraphNode> from;
  std::vector<size_t> order;  // the nodes' indices in the order they run (dependencies first)
  bool auto_free = false;  // CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH
  // conditional nodes: the handles (set to their defaults at each launch), and the graph
  std::vector<std::shared_ptr<ptxvm::cuda::ConditionalHandle>> handles;
  CUgraph_st* graph = nullptr;
};

struct CUevent_st {
  unsigned flags = 0;
  bool recorded = false;
  // last recorded on a capturing stream: it then stands only for a point in the capture, and
  // outside it an H100 answers CUDA_ERROR_INVALID_VALUE to queries of it (tests/hw/driver/capture)
  bool captured = false;
  double milliseconds = 0;  // host clock at the record
  CUgraph_st* graph = nullptr;           // when captured: the capture and the nodes it follows,
  std::vector<CUgraphNode_st*> nodes;    // which a stream waiting on it joins (cuStreamWaitEvent)
};

namespace ptxvm::cuda {

// What the emulated GPU is: PTXVM_CC (default 9.0) and PTXVM_DEVICE_COUNT (default 1).
struct Config {
  int major = 9, minor = 0, devices = 1;
};

struct Driver {
  std::recursive_mutex mutex;
  bool initialized = false;
  Config config;
  ptxvm::Device device;
  std::vector<std::unique_ptr<CUctx_st>> primary;  // per device
  std::vector<int> primary_refs;                   // cuDevicePrimaryCtxRetain counts
  std::vector<std::unique_ptr<CUmemPoolHandle_st>> default_pools;  // per device
  std::vector<CUmemoryPool> pools;                                  // per device, cuDeviceSetMemPool's
  std::vector<CUmemoryPool> created_pools;                          // cuMemPoolCreate's
  // An allocation: its host memory and bytes, and what cuPointerGetAttribute says it is.
  struct Allocation {
    void* host;
    size_t bytes;
    CUmemorytype type = CU_MEMORYTYPE_DEVICE;  // CU_MEMORYTYPE_HOST: page-locked host memory
    bool managed = false;
    CUmemoryPool pool = nullptr;  // cuMemAllocAsync's and cuMemAllocFromPoolAsync's
    std::shared_ptr<GraphMemory> graph;  // a graph's allocation: its memory, which it does not own
  };
  std::map<uint64_t, Allocation> allocations;  // by device address
  std::map<uint64_t, size_t> registered;       // cuMemHostRegister's ranges: address -> bytes
  std::vector<uint64_t> leaks_reported;                        // allocations memcheck named already
  // Graph memory (cuDeviceGetGraphMemAttribute): the reservations by address, the bytes reserved
  // and the bytes of live allocations, and their highs.
  std::map<uint64_t, GraphMemory*> graph_memory;
  uint64_t graph_reserved = 0, graph_reserved_high = 0, graph_used = 0, graph_used_high = 0;
  std::vector<CUgraph_st*> captures;  // the graphs stream capture is recording into
  CUresult sticky = CUDA_SUCCESS;  // a launch's fault: every later call reports it, as on a GPU
};

Driver& driver();

// memcheck's leak check (docs/Sanitizer.md): when PTXVM_CHECK names memcheck, the allocations
// never freed are reported on stderr at cuDevicePrimaryCtxReset (cudaDeviceReset) and at exit,
// each once, with a summary, as compute-sanitizer's --leak-check full does.
void report_leaks();
CUcontext& current();  // this thread's current context (null: none)

// Device memory (zeroed) and its release: cuMemAlloc's and cuMemFree's.
CUresult allocate(CUdeviceptr* out, size_t bytes, CUmemorytype type = CU_MEMORYTYPE_DEVICE, bool managed = false,
                  CUmemoryPool pool = nullptr);
CUresult release(uint64_t address);
// The host bytes behind [address, address + bytes) of device memory, or null.
void* device_bytes(uint64_t address, size_t bytes);
// A launch of `f` on grid x block with `shared` dynamic bytes, in the kernel's cluster shape.
ptxvm::LaunchConfig config_of(CUfunc_st* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                              unsigned shared);
// The arguments of a launch of `f` as bytes: one pointer per parameter, or the `extra` buffer.
CUresult arguments(CUfunc_st* f, void** params, void** extra, std::vector<ptxvm::KernelArg>& args);
// Runs a launch of `f` and reports a fault as CUDA does (a sticky error that the calls after the
// launch return, the report on stderr); on a capturing stream, records it instead.
CUresult launch(CUfunc_st* f, ptxvm::LaunchConfig config, void** params, void** extra, CUstream stream = nullptr);
CUresult run(CUfunc_st* f, const ptxvm::LaunchConfig& config, const std::vector<ptxvm::KernelArg>& args);
// The graph `stream` is capturing into, or null (the NULL, legacy and per-thread streams never are).
CUgraph_st* capturing(CUstream stream);
// Adds `node` to the graph `stream` captures into, after the stream's last node, and makes it
// the stream's last (stream capture's order).
CUgraphNode record(CUstream stream, CUgraphNode_st node);
// The graph memory node for an allocation of `bytes` from a pool of `props`, and a free of
// `address` in `graph` (CUDA_ERROR_INVALID_VALUE: no allocation node gave it, or graph frees it
// already).
CUgraphNode_st alloc_node(size_t bytes, const CUmemPoolProps& props);
CUresult free_node(CUgraph_st* graph, CUdeviceptr address, CUgraphNode_st& node);
// The indices of `graph`'s nodes in an order that follows every dependency (the order they were
// added where it does; graph_topology.cpp); false when the dependencies make a cycle.
bool run_order(const CUgraph_st& graph, std::vector<size_t>& order);
// A stream waiting on an event recorded in a capture joins the capture (cuStreamWaitEvent).
void join_capture(CUstream stream, CUevent event);
// A stream destroyed leaves the capture it is part of.
void leave_capture(CUstream stream);
// The module in `image`: PTX text, a fat binary container or its wrapper. `optimize` false: as the
// JIT compiles at optimization level 0 or with debug information (jit_optimizes).
CUresult load_module(CUmodule* out, const void* image, bool optimize = true);
// Whether JIT options leave ptxas's optimizations on: not at CU_JIT_OPTIMIZATION_LEVEL 0, nor with
// CU_JIT_GENERATE_DEBUG_INFO.
bool jit_optimizes(const CUjit_option* options, void* const* values, unsigned count);
// The bytes of the file at `path` into `bytes` (cuModuleLoad, cuLinkAddFile); false when it cannot
// be opened.
bool read_file(const char* path, std::string& bytes);

// The common prologue: the driver initialised, no sticky fault.
CUresult ready();

}  // namespace ptxvm::cuda
