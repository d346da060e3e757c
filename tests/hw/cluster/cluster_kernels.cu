// Thread-block-cluster kernels (sm_90a) whose results an H100 recorded (record_cluster.cu) and
// ptxvm replays from the very same PTX:
//
//   nvcc -arch=sm_90a -ptx -O2 cluster_kernels.cu -o cluster_kernels.ptx
//
// Every kernel reads `in` and writes every word of its part of `out` (layouts in launches.h).
// Waits on mbarriers are bounded (kSpin test_waits) so that a copy that never completes shows up
// as a completion flag of 0 instead of a hang. Every CTA stays in the cluster barrier until the
// others are done with its shared memory.
#include <cooperative_groups.h>
#include <cuda.h>  // CUtensorMap

#include "launches.h"

namespace cg = cooperative_groups;
using namespace ptxvm_hw_cluster;

namespace {

constexpr unsigned kSpin = 1u << 22;

#define SREG(fn, reg)                                       \
  __device__ __forceinline__ unsigned fn() {                \
    unsigned v;                                             \
    asm volatile("mov.u32 %0, %%" reg ";" : "=r"(v));       \
    return v;                                               \
  }
SREG(cluster_ctaid_x, "cluster_ctaid.x")
SREG(cluster_ctaid_y, "cluster_ctaid.y")
SREG(cluster_ctaid_z, "cluster_ctaid.z")
SREG(cluster_nctaid_x, "cluster_nctaid.x")
SREG(cluster_nctaid_y, "cluster_nctaid.y")
SREG(cluster_nctaid_z, "cluster_nctaid.z")
SREG(cluster_ctarank, "cluster_ctarank")
SREG(cluster_nctarank, "cluster_nctarank")
SREG(clusterid_x, "clusterid.x")
SREG(clusterid_y, "clusterid.y")
SREG(clusterid_z, "clusterid.z")
SREG(nclusterid_x, "nclusterid.x")
SREG(nclusterid_y, "nclusterid.y")
SREG(nclusterid_z, "nclusterid.z")
SREG(dynamic_smem_size, "dynamic_smem_size")
SREG(total_smem_size, "total_smem_size")
#undef SREG

__device__ __forceinline__ unsigned is_explicit_cluster() {
  unsigned v;
  asm volatile("{\n\t.reg .pred p;\n\tmov.pred p, %%is_explicit_cluster;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(v));
  return v;
}

__device__ __forceinline__ unsigned cta_linear() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}
__device__ __forceinline__ unsigned thread_linear() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ __forceinline__ unsigned cluster_linear() {
  return clusterid_x() + nclusterid_x() * (clusterid_y() + nclusterid_y() * clusterid_z());
}

__device__ __forceinline__ unsigned smem(const void* p) { return unsigned(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void cluster_sync_ptx() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

__device__ __forceinline__ unsigned mapa32(unsigned a, unsigned rank) {
  unsigned d;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(rank));
  return d;
}
__device__ __forceinline__ unsigned long long mapa64(unsigned long long a, unsigned rank) {
  unsigned long long d;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(d) : "l"(a), "r"(rank));
  return d;
}
__device__ __forceinline__ unsigned getctarank32(unsigned a) {
  unsigned d;
  asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(d) : "r"(a));
  return d;
}
__device__ __forceinline__ unsigned getctarank64(unsigned long long a) {
  unsigned d;
  asm volatile("getctarank.u64 %0, %1;" : "=r"(d) : "l"(a));
  return d;
}
// shared::cluster (32-bit) -> generic
__device__ __forceinline__ unsigned long long cvta_cluster(unsigned a) {
  unsigned long long d;
  asm volatile("{\n\t.reg .u64 t;\n\tcvt.u64.u32 t, %1;\n\tcvta.shared::cluster.u64 %0, t;\n\t}" : "=l"(d) : "r"(a));
  return d;
}
// generic -> shared::cluster (32-bit)
__device__ __forceinline__ unsigned cvta_to_cluster(unsigned long long a) {
  unsigned d;
  asm volatile("{\n\t.reg .u64 t;\n\tcvta.to.shared::cluster.u64 t, %1;\n\tcvt.u32.u64 %0, t;\n\t}" : "=r"(d) : "l"(a));
  return d;
}
// isspacep of a generic address: bit 0 shared::cta, 1 shared::cluster, 2 global, 3 local, 4 const,
// 5 param
__device__ __forceinline__ unsigned space_bits(unsigned long long a) {
  unsigned d;
  asm volatile(
      "{\n\t.reg .pred p0, p1, p2, p3, p4, p5;\n\t.reg .u32 b0, b1, b2, b3, b4, b5;\n\t"
      "isspacep.shared::cta p0, %1;\n\tisspacep.shared::cluster p1, %1;\n\tisspacep.global p2, %1;\n\t"
      "isspacep.local p3, %1;\n\tisspacep.const p4, %1;\n\tisspacep.param p5, %1;\n\t"
      "selp.u32 b0, 1, 0, p0;\n\tselp.u32 b1, 2, 0, p1;\n\tselp.u32 b2, 4, 0, p2;\n\t"
      "selp.u32 b3, 8, 0, p3;\n\tselp.u32 b4, 16, 0, p4;\n\tselp.u32 b5, 32, 0, p5;\n\t"
      "or.b32 b0, b0, b1;\n\tor.b32 b2, b2, b3;\n\tor.b32 b4, b4, b5;\n\tor.b32 b0, b0, b2;\n\tor.b32 %0, b0, b4;\n\t}"
      : "=r"(d)
      : "l"(a));
  return d;
}
__device__ __forceinline__ unsigned ld_cluster_u32(unsigned a) {
  unsigned d;
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(d) : "r"(a) : "memory");
  return d;
}
__device__ __forceinline__ unsigned ld_generic_u32(unsigned long long a) {
  unsigned d;
  asm volatile("ld.u32 %0, [%1];" : "=r"(d) : "l"(a) : "memory");
  return d;
}

// ---- mbarrier helpers (own CTA's barrier by its shared::cta address) ----
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void fence_mbar_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void fence_proxy_async() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
__device__ __forceinline__ void mbar_arrive_expect_tx(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
// Spins on test_wait.parity (acquire at cluster scope) at most kSpin times: 1 when the phase of
// `parity` completed.
__device__ __forceinline__ unsigned mbar_wait(unsigned bar, unsigned parity) {
  for (unsigned i = 0; i < kSpin; ++i) {
    unsigned done;
    asm volatile(
        "{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n\t"
        "selp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
    if (done) return 1;
  }
  return 0;
}

__device__ __forceinline__ void put64(unsigned* o, unsigned long long v) {
  o[0] = unsigned(v);
  o[1] = unsigned(v >> 32);
}

// ---- a. identities and addresses ----
__device__ __forceinline__ void ids_body(unsigned* var, unsigned* out) {
  extern __shared__ __align__(16) unsigned dyn[];
  const unsigned t = thread_linear(), cta = cta_linear(), threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned n = cluster_nctarank(), rank = cluster_ctarank();
  unsigned* o = out + (size_t(cta) * threads + t) * (kIdsHeader + kIdsPerRank * n);
  if (t == 0) *var = 0xc1d00000u | (rank << 12) | cta;
  cluster_sync_ptx();
  const unsigned s = smem(var);
  const unsigned long long g = reinterpret_cast<unsigned long long>(var);
  o[0] = t;
  o[1] = blockIdx.x, o[2] = blockIdx.y, o[3] = blockIdx.z;
  o[4] = gridDim.x, o[5] = gridDim.y, o[6] = gridDim.z;
  o[7] = cluster_ctaid_x(), o[8] = cluster_ctaid_y(), o[9] = cluster_ctaid_z();
  o[10] = cluster_nctaid_x(), o[11] = cluster_nctaid_y(), o[12] = cluster_nctaid_z();
  o[13] = rank, o[14] = n;
  o[15] = clusterid_x(), o[16] = clusterid_y(), o[17] = clusterid_z();
  o[18] = nclusterid_x(), o[19] = nclusterid_y(), o[20] = nclusterid_z();
  o[21] = is_explicit_cluster();
  o[22] = s;
  put64(o + 23, g);
  put64(o + 25, cvta_cluster(s));
  o[27] = getctarank32(s);
  o[28] = getctarank64(g);
  o[29] = space_bits(g);
  o[30] = dynamic_smem_size();
  o[31] = total_smem_size();
  o[32] = smem(dyn);
  for (unsigned r = 0; r < n; ++r) {
    unsigned* p = o + kIdsHeader + kIdsPerRank * r;
    const unsigned m = mapa32(s, r);
    const unsigned long long mg = mapa64(g, r);
    p[0] = m;
    p[1] = getctarank32(m);
    put64(p + 2, mg);
    p[4] = getctarank64(mg);
    put64(p + 5, cvta_cluster(m));
    p[7] = cvta_to_cluster(mg);
    p[8] = space_bits(mg);
    p[9] = ld_cluster_u32(m);
    p[10] = ld_generic_u32(mg);
  }
  cluster_sync_ptx();
}

}  // namespace

extern "C" __global__ void cluster_ids(const unsigned* in, unsigned* out, unsigned param) {
  __shared__ unsigned var;
  ids_body(&var, out);
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_ids_c2(const unsigned* in, unsigned* out, unsigned param) {
  __shared__ unsigned var;
  ids_body(&var, out);
}

// mapa and getctarank of ranks 0..31 and a few far ones, by thread 0 of each CTA: the ISA leaves
// ranks outside the cluster undefined; this records the H100's arithmetic.
extern "C" __global__ void mapa_range(const unsigned* in, unsigned* out, unsigned param) {
  __shared__ unsigned var;
  if (threadIdx.x == 0) {
    var = in[0];
    const unsigned far[9] = {63, 64, 127, 128, 255, 256, 65535, 0x80000000u, 0xffffffffu};
    const unsigned s = smem(&var);
    const unsigned long long g = reinterpret_cast<unsigned long long>(&var);
    unsigned* o = out + cta_linear() * kMapaRanks * 5;
    for (unsigned i = 0; i < kMapaRanks; ++i) {
      const unsigned r = i < 32 ? i : far[i - 32];
      const unsigned m = mapa32(s, r);
      const unsigned long long mg = mapa64(g, r);
      o[5 * i] = m;
      put64(o + 5 * i + 1, mg);
      o[5 * i + 3] = getctarank32(m);
      o[5 * i + 4] = getctarank64(mg);
    }
  }
}

// g. an access to the shared memory of rank %cluster_nctarank (outside the cluster).
extern "C" __global__ void dsmem_oob(const unsigned* in, unsigned* out, unsigned param) {
  __shared__ unsigned var;
  if (threadIdx.x == 0) var = in[0];
  cluster_sync_ptx();
  if (threadIdx.x == 0) {
    const unsigned n = cluster_nctarank();
    unsigned v = 0;
    if (param == 0) v = ld_cluster_u32(mapa32(smem(&var), n));
    if (param == 1) v = ld_generic_u32(mapa64(reinterpret_cast<unsigned long long>(&var), n));
    if (param == 2) asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(mapa32(smem(&var), n)), "r"(in[1]) : "memory");
    out[cta_linear()] = v;
  }
  cluster_sync_ptx();
}

// The own variable through shared::cta addresses whose rank bits (31:24) name another CTA
// (undefined by the ISA; records what the H100 does). launches.h, window(), lists the modes.
extern "C" __global__ void cta_window(const unsigned* in, unsigned* out, unsigned param) {
  __shared__ unsigned var;
  const unsigned t = threadIdx.x, r = cluster_ctarank(), n = cluster_nctarank(), cta = cta_linear();
  if (t == 0) var = 0xc1d00000u | (r << 12) | cta;
  cluster_sync_ptx();
  const unsigned a = smem(&var), cleared = a & 0x00ffffffu, other = mapa32(a, (r + 1) % n);
  unsigned v = 0;
  if (t == 0) {
    if (param == 0) asm volatile("ld.shared::cta.u32 %0, [%1];" : "=r"(v) : "r"(cleared) : "memory");
    if (param == 1) asm volatile("ld.shared::cta.u32 %0, [%1];" : "=r"(v) : "r"(other) : "memory");
    if (param == 2) asm volatile("st.shared::cta.u32 [%0], %1;" ::"r"(cleared), "r"(0x57000000u | cta) : "memory");
    if (param == 3) {
      unsigned long long g;
      asm volatile("{\n\t.reg .u64 t;\n\tcvt.u64.u32 t, %1;\n\tcvta.shared.u64 %0, t;\n\t}" : "=l"(g) : "r"(cleared));
      v = ld_generic_u32(g);
    }
  }
  cluster_sync_ptx();
  if (t == 0) out[cta * 4] = a, out[cta * 4 + 1] = v, out[cta * 4 + 2] = var, out[cta * 4 + 3] = r;
  cluster_sync_ptx();
}

// ---- b. distributed histogram and DSMEM atomics ----
namespace {

__device__ __forceinline__ unsigned cas_init(unsigned cluster, unsigned rank, unsigned t) {
  return 0xca500000u ^ (cluster << 12) ^ (rank << 8) ^ t;
}

// PTX: inline atom/red .shared::cluster on mapa'd 32-bit addresses; otherwise CUDA's atomics on
// cluster.map_shared_rank's generic pointers.
template <bool PTX>
__device__ __forceinline__ void hist_body(const unsigned* in, unsigned* out) {
  __shared__ unsigned bins[64], mins[16], maxs[16], incs[16], decs[16], logic[12];
  __shared__ unsigned long long add64[8];
  __shared__ float addf[8];
  __shared__ unsigned exch[kHistThreads], cas[kHistThreads];
  cg::cluster_group cl = cg::this_cluster();
  const unsigned t = threadIdx.x, cta = cta_linear(), n = cl.num_blocks(), r = cl.block_rank();
  const unsigned nb = (r + 1) % n, cid = cluster_linear();
  const unsigned* cin = in + cta * kHistInPerCta;
  bins[t] = 0;
  if (t < 16) mins[t] = ~0u, maxs[t] = 0x80000000u, incs[t] = 0, decs[t] = 3;
  if (t < 4) logic[t] = ~0u, logic[4 + t] = 0, logic[8 + t] = 0x5a5a5a5au;
  if (t < 8) add64[t] = 0, addf[t] = 0.f;
  exch[t] = cin[512 + t];
  cas[t] = cas_init(cid, r, t);
  cl.sync();
  for (unsigned k = 0; k < 8; ++k) {
    const unsigned v = cin[t * 8 + k];
    const unsigned bin = v % (64 * n), owner = bin / 64, slot = bin % 64, weight = v >> 24;
    const unsigned o2 = (v >> 4) % n, o3 = (v >> 9) % n, o4 = (v >> 14) % n, o5 = (v >> 19) % n, o6 = (v >> 27) % n,
                   o7 = (v >> 22) % n;
    const unsigned long long v64 = (static_cast<unsigned long long>(v) << 20) | k;
    const float vf = float(v & 255);
    if constexpr (!PTX) {
      atomicAdd(cl.map_shared_rank(&bins[slot], owner), weight);
      atomicMin(cl.map_shared_rank(&mins[v & 15], o2), v);
      atomicMax(reinterpret_cast<int*>(cl.map_shared_rank(&maxs[(v >> 5) & 15], o3)), int(v));
      atomicInc(cl.map_shared_rank(&incs[(v >> 10) & 15], o4), 37u);
      atomicDec(cl.map_shared_rank(&decs[(v >> 15) & 15], o5), 29u);
      atomicAnd(cl.map_shared_rank(&logic[k & 3], o6), ~(1u << (v & 31)));
      atomicOr(cl.map_shared_rank(&logic[4 + (k & 3)], o6), 1u << ((v >> 5) & 31));
      atomicXor(cl.map_shared_rank(&logic[8 + (k & 3)], o6), v);
      atomicAdd(cl.map_shared_rank(&add64[k], o7), v64);
      atomicAdd(cl.map_shared_rank(&addf[(v >> 3) & 7], o7), vf);
    } else {
      unsigned d;
      unsigned long long d64;
      float df;
      if (k & 1)
        asm volatile("atom.shared::cluster.add.u32 %0, [%1], %2;" : "=r"(d) : "r"(mapa32(smem(&bins[slot]), owner)), "r"(weight) : "memory");
      else
        asm volatile("red.shared::cluster.add.u32 [%0], %1;" ::"r"(mapa32(smem(&bins[slot]), owner)), "r"(weight) : "memory");
      if (k & 2)
        asm volatile("red.shared::cluster.min.u32 [%0], %1;" ::"r"(mapa32(smem(&mins[v & 15]), o2)), "r"(v) : "memory");
      else
        asm volatile("atom.shared::cluster.min.u32 %0, [%1], %2;" : "=r"(d) : "r"(mapa32(smem(&mins[v & 15]), o2)), "r"(v) : "memory");
      asm volatile("atom.shared::cluster.max.s32 %0, [%1], %2;" : "=r"(d) : "r"(mapa32(smem(&maxs[(v >> 5) & 15]), o3)), "r"(v) : "memory");
      asm volatile("atom.shared::cluster.inc.u32 %0, [%1], %2;" : "=r"(d) : "r"(mapa32(smem(&incs[(v >> 10) & 15]), o4)), "r"(37u) : "memory");
      asm volatile("atom.shared::cluster.dec.u32 %0, [%1], %2;" : "=r"(d) : "r"(mapa32(smem(&decs[(v >> 15) & 15]), o5)), "r"(29u) : "memory");
      asm volatile("atom.shared::cluster.and.b32 %0, [%1], %2;" : "=r"(d) : "r"(mapa32(smem(&logic[k & 3]), o6)), "r"(~(1u << (v & 31))) : "memory");
      asm volatile("red.shared::cluster.or.b32 [%0], %1;" ::"r"(mapa32(smem(&logic[4 + (k & 3)]), o6)), "r"(1u << ((v >> 5) & 31)) : "memory");
      asm volatile("atom.shared::cluster.xor.b32 %0, [%1], %2;" : "=r"(d) : "r"(mapa32(smem(&logic[8 + (k & 3)]), o6)), "r"(v) : "memory");
      asm volatile("atom.shared::cluster.add.u64 %0, [%1], %2;" : "=l"(d64) : "r"(mapa32(smem(&add64[k]), o7)), "l"(v64) : "memory");
      asm volatile("atom.shared::cluster.add.f32 %0, [%1], %2;" : "=f"(df) : "r"(mapa32(smem(&addf[(v >> 3) & 7]), o7)), "f"(vf) : "memory");
      (void)d, (void)d64, (void)df;
    }
  }
  // exch and CAS: word t of the next rank belongs to this thread alone, so the old values are fixed.
  const unsigned expected = cas_init(cid, nb, t), swap = cin[t * 8] ^ 0x13579bdfu;
  unsigned old_e, old_c1, old_c2;
  if constexpr (!PTX) {
    old_e = atomicExch(cl.map_shared_rank(&exch[t], nb), cin[576 + t]);
    old_c1 = atomicCAS(cl.map_shared_rank(&cas[t], nb), expected, swap);
    old_c2 = atomicCAS(cl.map_shared_rank(&cas[t], nb), expected, 0xdeadbeefu);
  } else {
    const unsigned ae = mapa32(smem(&exch[t]), nb), ac = mapa32(smem(&cas[t]), nb);
    asm volatile("atom.shared::cluster.exch.b32 %0, [%1], %2;" : "=r"(old_e) : "r"(ae), "r"(cin[576 + t]) : "memory");
    asm volatile("atom.shared::cluster.cas.b32 %0, [%1], %2, %3;" : "=r"(old_c1) : "r"(ac), "r"(expected), "r"(swap) : "memory");
    asm volatile("atom.shared::cluster.cas.b32 %0, [%1], %2, %3;" : "=r"(old_c2) : "r"(ac), "r"(expected), "r"(0xdeadbeefu) : "memory");
  }
  cl.sync();
  unsigned* o = out + cta * kHistOutPerCta;
  o[t] = bins[t];
  if (t < 16) o[64 + t] = mins[t], o[80 + t] = maxs[t], o[96 + t] = incs[t], o[112 + t] = decs[t];
  if (t < 12) o[128 + t] = logic[t];
  if (t < 8) put64(o + 140 + 2 * t, add64[t]), o[156 + t] = __float_as_uint(addf[t]);
  o[164 + t] = old_e;
  o[228 + t] = old_c1;
  o[292 + t] = old_c2;
  o[356 + t] = exch[t];
  o[420 + t] = cas[t];
  if (t < 28) o[484 + t] = 0;
}

}  // namespace

extern "C" __global__ void dsmem_histogram(const unsigned* in, unsigned* out, unsigned param) {
  hist_body<false>(in, out);
}
extern "C" __global__ void dsmem_histogram_ptx(const unsigned* in, unsigned* out, unsigned param) {
  hist_body<true>(in, out);
}

// ---- c. loads and stores of the next rank's buffer ----
extern "C" __global__ void dsmem_ring(const unsigned* in, unsigned* out, unsigned param) {
  __shared__ __align__(16) unsigned char ring[1024];
  cg::cluster_group cl = cg::this_cluster();
  const unsigned t = threadIdx.x, cta = cta_linear(), n = cl.num_blocks(), r = cl.block_rank(), nb = (r + 1) % n;
  const unsigned* cin = in + cta * kRingInPerCta;
  unsigned* words = reinterpret_cast<unsigned*>(ring);
  for (unsigned j = 0; j < 4; ++j) words[t * 4 + j] = cin[t * 4 + j];
  cl.sync();
  const unsigned A = mapa32(smem(ring), nb);
  unsigned char* P = cl.map_shared_rank(ring, nb);
  unsigned w[kRingWordsPerThread];
  asm volatile("ld.shared::cluster.u8 %0, [%1];" : "=r"(w[0]) : "r"(A + (t * 13) % 1024) : "memory");
  asm volatile("ld.shared::cluster.s8 %0, [%1];" : "=r"(w[1]) : "r"(A + (t * 29 + 5) % 1024) : "memory");
  asm volatile("ld.shared::cluster.u16 %0, [%1];" : "=r"(w[2]) : "r"(A + 2 * ((t * 7) % 512)) : "memory");
  asm volatile("ld.shared::cluster.s16 %0, [%1];" : "=r"(w[3]) : "r"(A + 2 * ((t * 11 + 3) % 512)) : "memory");
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(w[4]) : "r"(A + 4 * ((t * 5) % 256)) : "memory");
  {
    unsigned long long d;
    asm volatile("ld.shared::cluster.u64 %0, [%1];" : "=l"(d) : "r"(A + 8 * ((t * 3) % 128)) : "memory");
    put64(w + 5, d);
  }
  asm volatile("ld.shared::cluster.v2.u32 {%0, %1}, [%2];" : "=r"(w[7]), "=r"(w[8]) : "r"(A + 8 * ((t * 5 + 1) % 128)) : "memory");
  asm volatile("ld.shared::cluster.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(w[9]), "=r"(w[10]), "=r"(w[11]), "=r"(w[12])
               : "r"(A + 16 * ((t * 9) % 64))
               : "memory");
  asm volatile("ld.shared::cluster.u32 %0, [%1+12];" : "=r"(w[13]) : "r"(A + 16 * (t % 63)) : "memory");
  // generic loads through cluster.map_shared_rank
  w[14] = P[(t * 17 + 1) % 1024];
  w[15] = unsigned(int(reinterpret_cast<signed char*>(P)[(t * 19 + 2) % 1024]));
  w[16] = reinterpret_cast<unsigned short*>(P)[(t * 13) % 512];
  w[17] = reinterpret_cast<unsigned*>(P)[(t * 7 + 2) % 256];
  put64(w + 18, reinterpret_cast<unsigned long long*>(P)[(t * 11) % 128]);
  {
    const uint2 v = reinterpret_cast<uint2*>(P)[(t * 13 + 5) % 128];
    w[20] = v.x, w[21] = v.y;
    const uint4 u = reinterpret_cast<uint4*>(P)[(t * 3 + 1) % 64];
    w[22] = u.x, w[23] = u.y, w[24] = u.z, w[25] = u.w;
  }
  // own buffer through the cluster window, and memory-model qualified loads
  w[26] = ld_cluster_u32(mapa32(smem(ring), r) + 4 * t);
  asm volatile("ld.acquire.cluster.shared::cluster.u32 %0, [%1];" : "=r"(w[27]) : "r"(A + 4 * ((t * 3) % 256)) : "memory");
  asm volatile("ld.relaxed.cluster.shared::cluster.u32 %0, [%1];" : "=r"(w[28]) : "r"(A + 4 * ((t * 9 + 7) % 256)) : "memory");
  {
    unsigned short h;
    asm volatile("ld.volatile.shared::cluster.u16 %0, [%1];" : "=h"(h) : "r"(A + 2 * ((t * 5 + 9) % 512)) : "memory");
    w[29] = h;
  }
  w[30] = ld_generic_u32(mapa64(reinterpret_cast<unsigned long long>(ring), nb) + 4 * ((t * 15 + 4) % 256));
  w[31] = r | (nb << 8) | (n << 16);
  cl.sync();
  // stores: thread t owns bytes [16t, 16t + 16) of the next rank's buffer
  const unsigned* s = cin + 256 + 4 * t;
  const unsigned B = A + 16 * t;
  unsigned char* Q = P + 16 * t;
  switch (t % 6) {
    case 0:
      asm volatile("st.shared::cluster.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(B), "r"(s[0]), "r"(s[1]), "r"(s[2]), "r"(s[3]) : "memory");
      break;
    case 1:
      asm volatile("st.shared::cluster.v2.u32 [%0], {%1, %2};" ::"r"(B), "r"(s[0]), "r"(s[1]) : "memory");
      asm volatile("st.shared::cluster.u64 [%0+8], %1;" ::"r"(B), "l"((static_cast<unsigned long long>(s[3]) << 32) | s[2]) : "memory");
      break;
    case 2:
      asm volatile("st.shared::cluster.u8 [%0], %1;" ::"r"(B), "r"(s[0]) : "memory");
      asm volatile("st.shared::cluster.u8 [%0+3], %1;" ::"r"(B), "r"(s[0] >> 8) : "memory");
      asm volatile("st.shared::cluster.u16 [%0+6], %1;" ::"r"(B), "h"(static_cast<unsigned short>(s[1])) : "memory");
      asm volatile("st.shared::cluster.u32 [%0+12], %1;" ::"r"(B), "r"(s[3]) : "memory");
      break;
    case 3:
      *reinterpret_cast<unsigned*>(Q) = s[0];
      *reinterpret_cast<unsigned short*>(Q + 6) = static_cast<unsigned short>(s[1]);
      Q[9] = static_cast<unsigned char>(s[2]);
      Q[11] = static_cast<unsigned char>(s[2] >> 16);
      break;
    case 4:
      *reinterpret_cast<uint4*>(Q) = make_uint4(s[0], s[1], s[2], s[3]);
      break;
    default:
      asm volatile("st.relaxed.cluster.shared::cluster.u32 [%0+4], %1;" ::"r"(B), "r"(s[1]) : "memory");
      asm volatile("st.release.cluster.shared::cluster.u32 [%0+8], %1;" ::"r"(B), "r"(s[2]) : "memory");
      break;
  }
  cl.sync();
  unsigned* o = out + cta * kRingOutPerCta;
  for (unsigned j = 0; j < kRingWordsPerThread; ++j) o[t * kRingWordsPerThread + j] = w[j];
  for (unsigned j = 0; j < 4; ++j) o[kRingThreads * kRingWordsPerThread + t * 4 + j] = words[t * 4 + j];
}

// ---- d. hand-offs through the next rank's mbarriers ----
extern "C" __global__ void remote_mbarrier(const unsigned* in, unsigned* out, unsigned param) {
  __shared__ __align__(16) unsigned d1[64];
  __shared__ __align__(16) unsigned d2[256];
  __shared__ __align__(8) unsigned rw[20];
  __shared__ unsigned long long bar1, bar2, bar3;
  const unsigned t = threadIdx.x, cta = cta_linear(), n = cluster_nctarank(), r = cluster_ctarank(), nb = (r + 1) % n;
  const unsigned* cin = in + cta * kMbarInPerCta;
  d1[t] = 0xd1000000u | t;
  for (unsigned j = 0; j < 4; ++j) d2[4 * t + j] = 0xd2000000u | (4 * t + j);
  if (t < 20) rw[t] = cin[448 + t];
  if (t == 0) {
    mbar_init(smem(&bar1), kMbarThreads);
    mbar_init(smem(&bar2), 1);
    mbar_init(smem(&bar3), 1);
    fence_mbar_init();
    mbar_arrive_expect_tx(smem(&bar2), 1024);
    mbar_arrive_expect_tx(smem(&bar3), kMbarRedTxBytes);
  }
  fence_proxy_async();
  cluster_sync_ptx();
  // 1. plain remote store, then a remote arrive with release at cluster scope
  asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(mapa32(smem(&d1[t]), nb)), "r"(cin[t]) : "memory");
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(mapa32(smem(&bar1), nb)) : "memory");
  // 2. st.async of 16 bytes per thread, four ways
  const unsigned a2 = mapa32(smem(&d2[4 * t]), nb), m2 = mapa32(smem(&bar2), nb);
  const unsigned* s = cin + 64 + 4 * t;
  switch (t % 4) {
    case 0:
      asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, %4}, [%5];"
                   ::"r"(a2), "r"(s[0]), "r"(s[1]), "r"(s[2]), "r"(s[3]), "r"(m2) : "memory");
      break;
    case 1:
      asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%0], {%1, %2}, [%3];"
                   ::"r"(a2), "r"(s[0]), "r"(s[1]), "r"(m2) : "memory");
      asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%0+8], {%1, %2}, [%3];"
                   ::"r"(a2), "r"(s[2]), "r"(s[3]), "r"(m2) : "memory");
      break;
    case 2:
      asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b64 [%0], %1, [%2];"
                   ::"r"(a2), "l"((static_cast<unsigned long long>(s[1]) << 32) | s[0]), "r"(m2) : "memory");
      asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b64 [%0+8], %1, [%2];"
                   ::"r"(a2), "l"((static_cast<unsigned long long>(s[3]) << 32) | s[2]), "r"(m2) : "memory");
      break;
    default:
      for (unsigned j = 0; j < 4; ++j)
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];"
                     ::"r"(a2 + 4 * j), "r"(s[j]), "r"(m2) : "memory");
      break;
  }
  // 3. red.async into the next rank's words
  const unsigned m3 = mapa32(smem(&bar3), nb), add = cin[320 + t], opnd = cin[384 + t];
  const unsigned ow = mapa32(smem(&rw[8 + t % 8]), nb);
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];"
               ::"r"(mapa32(smem(&rw[t % 8]), nb)), "r"(add), "r"(m3) : "memory");
  switch (t % 8) {
    case 0:
      asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.min.u32 [%0], %1, [%2];" ::"r"(ow), "r"(opnd), "r"(m3) : "memory");
      break;
    case 1:
      asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.max.u32 [%0], %1, [%2];" ::"r"(ow), "r"(opnd), "r"(m3) : "memory");
      break;
    case 2:
      asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.min.s32 [%0], %1, [%2];" ::"r"(ow), "r"(opnd), "r"(m3) : "memory");
      break;
    case 3:
      asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.max.s32 [%0], %1, [%2];" ::"r"(ow), "r"(opnd), "r"(m3) : "memory");
      break;
    case 4:
      asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [%0], %1, [%2];" ::"r"(ow), "r"(5u), "r"(m3) : "memory");
      break;
    case 5:
      asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.dec.u32 [%0], %1, [%2];" ::"r"(ow), "r"(6u), "r"(m3) : "memory");
      break;
    case 6:
      asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.and.b32 [%0], %1, [%2];" ::"r"(ow), "r"(opnd | 0x01010101u), "r"(m3) : "memory");
      break;
    default:
      asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.or.b32 [%0], %1, [%2];" ::"r"(ow), "r"(opnd & 0x10204080u), "r"(m3) : "memory");
      break;
  }
  if (t < 8) {
    asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.xor.b32 [%0], %1, [%2];"
                 ::"r"(mapa32(smem(&rw[16]), nb)), "r"(opnd), "r"(m3) : "memory");
    asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.s32 [%0], %1, [%2];"
                 ::"r"(mapa32(smem(&rw[17]), nb)), "r"(add ^ opnd), "r"(m3) : "memory");
    asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [%0], %1, [%2];"
                 ::"r"(mapa32(smem(&rw[18]), nb)), "l"((static_cast<unsigned long long>(add) << 32) | opnd), "r"(m3) : "memory");
  }
  // consumers: every thread waits on this CTA's own barriers
  const unsigned f1 = __syncthreads_and(mbar_wait(smem(&bar1), 0));
  const unsigned f2 = __syncthreads_and(mbar_wait(smem(&bar2), 0));
  const unsigned f3 = __syncthreads_and(mbar_wait(smem(&bar3), 0));
  unsigned* o = out + cta * kMbarOutPerCta;
  o[t] = d1[t];
  for (unsigned j = 0; j < 4; ++j) o[64 + 4 * t + j] = d2[4 * t + j];
  if (t < 20) o[320 + t] = rw[t];
  if (t == 0) o[340] = f1, o[341] = f2, o[342] = f3;
  if (t >= 3 && t < 12) o[340 + t] = 0;
  cluster_sync_ptx();
}

// ---- e. bulk copies into the cluster ----
namespace {
__device__ __forceinline__ unsigned rank_mask(unsigned param, unsigned n, unsigned src) {
  const unsigned all = (1u << n) - 1, m = param & 0xffffu & all;
  if (!(param & 0x10000u)) return m;
  const unsigned k = src % n;
  return ((m << k) | (m >> ((n - k) % n))) & all;
}
}  // namespace

// Rank s multicasts its 256-byte slice of `in` to offset s * 256 of the buffer of every rank of its
// mask; each rank waits for the slices that name it.
extern "C" __global__ void multicast_bulk(const unsigned* in, unsigned* out, unsigned param) {
  __shared__ __align__(128) unsigned buf[8 * kMcSliceWords];
  __shared__ unsigned long long bar;
  const unsigned t = threadIdx.x, cta = cta_linear(), n = cluster_nctarank(), r = cluster_ctarank();
  unsigned receive = 0;
  for (unsigned s = 0; s < n; ++s) receive += (rank_mask(param, n, s) >> r) & 1;
  for (unsigned i = t; i < n * kMcSliceWords; i += 32) buf[i] = 0xee000000u | (cta << 12) | i;
  fence_proxy_async();
  if (t == 0) {
    mbar_init(smem(&bar), 1);
    fence_mbar_init();
    mbar_arrive_expect_tx(smem(&bar), receive * kMcSliceWords * 4);
  }
  cluster_sync_ptx();
  const unsigned mask = rank_mask(param, n, r);
  if (t == 0 && mask != 0)
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, [%3], %4;"
        ::"r"(smem(&buf[r * kMcSliceWords])), "l"(in + cta * kMcSliceWords), "r"(kMcSliceWords * 4), "r"(smem(&bar)),
        "h"(static_cast<unsigned short>(mask))
        : "memory");
  const unsigned f = __syncthreads_and(mbar_wait(smem(&bar), 0));
  unsigned* o = out + cta * (n * kMcSliceWords + 1);
  for (unsigned i = t; i < n * kMcSliceWords; i += 32) o[i] = buf[i];
  if (t == 0) o[n * kMcSliceWords] = f;
  cluster_sync_ptx();
}

// Each rank copies its 512-byte buffer into the next rank's, shared::cta -> shared::cluster, in
// three pieces (16, 240, 256 bytes), completing on the next rank's mbarrier.
extern "C" __global__ void bulk_s2s(const unsigned* in, unsigned* out, unsigned param) {
  __shared__ __align__(128) unsigned src[kS2sWords], dst[kS2sWords];
  __shared__ unsigned long long bar;
  const unsigned t = threadIdx.x, cta = cta_linear(), n = cluster_nctarank(), r = cluster_ctarank(), nb = (r + 1) % n;
  for (unsigned i = t; i < kS2sWords; i += 32) src[i] = in[cta * kS2sWords + i], dst[i] = 0xef000000u | (cta << 12) | i;
  fence_proxy_async();
  if (t == 0) {
    mbar_init(smem(&bar), 1);
    fence_mbar_init();
    mbar_arrive_expect_tx(smem(&bar), kS2sWords * 4);
  }
  cluster_sync_ptx();
  if (t == 0) {
    const unsigned d = mapa32(smem(dst), nb), m = mapa32(smem(&bar), nb), s = smem(src);
    const unsigned off[3] = {0, 16, 256}, size[3] = {16, 240, 256};
    for (unsigned k = 0; k < 3; ++k)
      asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                   ::"r"(d + off[k]), "r"(s + off[k]), "r"(size[k]), "r"(m) : "memory");
  }
  const unsigned f = __syncthreads_and(mbar_wait(smem(&bar), 0));
  unsigned* o = out + cta * (kS2sWords + 1);
  for (unsigned i = t; i < kS2sWords; i += 32) o[i] = dst[i];
  if (t == 0) o[kS2sWords] = f;
  cluster_sync_ptx();
}

// ---- f. TMA multicast: rank r of cluster c loads rows c*n*8 + r*8 .. +7, columns c*8 .. c*8+31
// and multicasts them to offset r * 1024 of every rank of the mask ----
extern "C" __global__ void multicast_tma(const __grid_constant__ CUtensorMap map, const unsigned* in, unsigned* out,
                                         unsigned param) {
  __shared__ __align__(1024) unsigned tile[4 * kTmaSliceWords];
  __shared__ unsigned long long bar;
  const unsigned t = threadIdx.x, cta = cta_linear(), n = cluster_nctarank(), r = cluster_ctarank(), c = clusterid_x();
  const unsigned mask = param & ((1u << n) - 1);
  const unsigned receive = ((mask >> r) & 1) ? n : 0;
  for (unsigned i = t; i < n * kTmaSliceWords; i += 32) tile[i] = 0xab000000u | (cta << 12) | i;
  fence_proxy_async();
  if (t == 0) {
    mbar_init(smem(&bar), 1);
    fence_mbar_init();
    mbar_arrive_expect_tx(smem(&bar), receive * kTmaSliceWords * 4);
  }
  cluster_sync_ptx();
  if (t == 0 && mask != 0) {
    const int x = int(c * 8), y = int(c * n * kTmaBoxH + r * kTmaBoxH);
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
        " [%0], [%1, {%2, %3}], [%4], %5;"
        ::"r"(smem(&tile[r * kTmaSliceWords])), "l"(reinterpret_cast<unsigned long long>(&map)), "r"(x), "r"(y),
        "r"(smem(&bar)), "h"(static_cast<unsigned short>(mask))
        : "memory");
  }
  const unsigned f = __syncthreads_and(mbar_wait(smem(&bar), 0));
  unsigned* o = out + cta * (n * kTmaSliceWords + 1);
  for (unsigned i = t; i < n * kTmaSliceWords; i += 32) o[i] = tile[i];
  if (t == 0) o[n * kTmaSliceWords] = f;
  cluster_sync_ptx();
}
