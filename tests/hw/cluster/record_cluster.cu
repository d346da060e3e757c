// Records what an sm_90a GPU does for the thread-block-cluster launches of launches.h: loads
// cluster_kernels.ptx through the driver API, runs one launch with cuLaunchKernelEx (cluster
// dimension attribute as the table says) and appends its `out` words to OUTDIR/cluster.bin.
//
//   nvcc -O2 -std=c++17 -o record_cluster record_cluster.cu -lcuda
//   ./record_cluster --list                       # index, expectation, name of every launch
//   ./record_cluster cluster_kernels.ptx OUTDIR i # one launch
//
// record.sh runs each launch in a process of its own (a faulting launch leaves the context
// unusable). A record: uint16 name length, name, uint8 4, uint32 word count, the words; a launch
// the driver refuses or the GPU stops with an error is a record of no words.
//
// Beside recording, it checks the words against a host model of what each kernel should do (the
// identities, histogram, ring, hand-offs and copies; not the addresses) and prints the
// cluster_ids and mapa_range words in hex, so that the README can describe the H100's shared::cluster
// address encoding.
#include <cuda.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../driver.h"
#include "launches.h"

using namespace ptxvm_hw_cluster;
using std::vector;

namespace {

// ---- cluster geometry as the ISA describes it ----
struct Geometry {
  Dim3 grid, cluster;  // cluster: the effective one (1x1x1 without any)
  unsigned n() const { return volume(cluster); }
  unsigned ctas() const { return volume(grid); }
  void cta_xyz(unsigned cta, unsigned& x, unsigned& y, unsigned& z) const {
    x = cta % grid.x, y = (cta / grid.x) % grid.y, z = cta / (grid.x * grid.y);
  }
  unsigned rank(unsigned cta) const {
    unsigned x, y, z;
    cta_xyz(cta, x, y, z);
    return x % cluster.x + cluster.x * (y % cluster.y + cluster.y * (z % cluster.z));
  }
  unsigned cluster_id(unsigned cta) const {
    unsigned x, y, z;
    cta_xyz(cta, x, y, z);
    const unsigned nx = grid.x / cluster.x, ny = grid.y / cluster.y;
    return x / cluster.x + nx * (y / cluster.y + ny * (z / cluster.z));
  }
  // the CTA of rank r in the cluster of `cta`
  unsigned member(unsigned cta, unsigned r) const {
    unsigned x, y, z;
    cta_xyz(cta, x, y, z);
    x = x - x % cluster.x + r % cluster.x;
    y = y - y % cluster.y + (r / cluster.x) % cluster.y;
    z = z - z % cluster.z + r / (cluster.x * cluster.y);
    return x + grid.x * (y + grid.y * z);
  }
};

Geometry geometry_of(const Launch& l) {
  Geometry g{l.grid, l.cluster};
  if (g.cluster.x == 0) g.cluster = std::strcmp(l.kernel, "cluster_ids_c2") == 0 ? Dim3{2, 1, 1} : Dim3{1, 1, 1};
  return g;
}

unsigned mismatches = 0;
void expect_word(const vector<uint32_t>& got, size_t i, uint32_t want, const char* what) {
  if (got[i] != want) {
    if (mismatches < 12) std::printf("    MODEL MISMATCH %s: word %zu got %08x want %08x\n", what, i, got[i], want);
    ++mismatches;
  }
}

// ---- models ----
void check_ids(const Launch& l, const Geometry& g, const vector<uint32_t>& got, bool dump) {
  const unsigned threads = volume(l.block), n = g.n(), stride = kIdsHeader + kIdsPerRank * n;
  unsigned disagree = 0;
  for (unsigned cta = 0; cta < g.ctas(); ++cta) {
    unsigned x, y, z;
    g.cta_xyz(cta, x, y, z);
    const unsigned r = g.rank(cta);
    for (unsigned t = 0; t < threads; ++t) {
      const size_t b = (size_t(cta) * threads + t) * stride;
      const uint32_t want[21] = {t, x, y, z, l.grid.x, l.grid.y, l.grid.z, x % g.cluster.x, y % g.cluster.y,
                                 z % g.cluster.z, g.cluster.x, g.cluster.y, g.cluster.z, r, n, x / g.cluster.x,
                                 y / g.cluster.y, z / g.cluster.z, l.grid.x / g.cluster.x, l.grid.y / g.cluster.y,
                                 l.grid.z / g.cluster.z};
      for (unsigned i = 0; i < 21; ++i) expect_word(got, b + i, want[i], "ids header");
      for (unsigned q = 0; q < n; ++q) {
        const size_t p = b + kIdsHeader + kIdsPerRank * q;
        const uint32_t value = 0xc1d00000u | (q << 12) | g.member(cta, q);
        expect_word(got, p + 1, q, "getctarank.shared::cluster of mapa");
        expect_word(got, p + 4, q, "getctarank.u64 of mapa.u64");
        expect_word(got, p + 9, value, "ld.shared::cluster of mapa");
        expect_word(got, p + 10, value, "generic ld of mapa.u64");
      }
      // the address words do not depend on the thread
      const size_t b0 = size_t(cta) * threads * stride;
      for (unsigned i = 21; i < stride; ++i)
        if (got[b + i] != got[b0 + i]) ++disagree;
    }
    if (dump) {
      const uint32_t* o = got.data() + size_t(cta) * threads * stride;
      std::printf("  cta %2u ctaid (%u,%u,%u) cl_ctaid (%u,%u,%u) cl_nctaid (%u,%u,%u) rank %u/%u clusterid (%u,%u,%u) "
                  "nclusterid (%u,%u,%u) explicit %u\n",
                  cta, o[1], o[2], o[3], o[7], o[8], o[9], o[10], o[11], o[12], o[13], o[14], o[15], o[16], o[17],
                  o[18], o[19], o[20], o[21]);
      std::printf("    shared::cta %08x generic %08x%08x cvta.shared::cluster %08x%08x getctarank32 %u getctarank64 %u "
                  "space %02x dyn_size %u total_size %u dyn %08x\n",
                  o[22], o[24], o[23], o[26], o[25], o[27], o[28], o[29], o[30], o[31], o[32]);
      for (unsigned q = 0; q < n; ++q) {
        const uint32_t* p = o + kIdsHeader + kIdsPerRank * q;
        std::printf("    rank %2u: mapa32 %08x (rank %u) mapa64 %08x%08x (rank %u) cvta(mapa32) %08x%08x "
                    "cvta.to(mapa64) %08x space %02x ld %08x %08x\n",
                    q, p[0], p[1], p[3], p[2], p[4], p[6], p[5], p[7], p[8], p[9], p[10]);
      }
    }
  }
  std::printf("  threads disagreeing on address words: %u\n", disagree);
}

void dump_mapa_range(const Launch& l, const vector<uint32_t>& got) {
  for (unsigned cta = 0; cta < volume(l.grid); ++cta) {
    std::printf("  cta %u:\n", cta);
    const uint32_t* o = got.data() + cta * kMapaRanks * 5;
    static const unsigned far[9] = {63, 64, 127, 128, 255, 256, 65535, 0x80000000u, 0xffffffffu};
    for (unsigned i = 0; i < kMapaRanks; ++i) {
      const unsigned r = i < 32 ? i : far[i - 32];
      std::printf("    rank %10u: mapa32 %08x mapa64 %08x%08x getctarank32 %u getctarank64 %u\n", r, o[5 * i],
                  o[5 * i + 2], o[5 * i + 1], o[5 * i + 3], o[5 * i + 4]);
    }
  }
}

uint32_t cas_init(unsigned cluster, unsigned rank, unsigned t) { return 0xca500000u ^ (cluster << 12) ^ (rank << 8) ^ t; }

vector<uint32_t> model_hist(const Geometry& g, const vector<uint32_t>& in) {
  struct Cta {
    uint32_t bins[64], mins[16], maxs[16], incs[16], decs[16], logic[12];
    uint64_t add64[8];
    float addf[8];
    uint32_t exch[64], cas[64], old_e[64], old_c1[64], old_c2[64];
  };
  const unsigned n = g.n();
  vector<Cta> c(g.ctas());
  for (unsigned cta = 0; cta < g.ctas(); ++cta) {
    Cta& s = c[cta];
    const uint32_t* cin = in.data() + cta * kHistInPerCta;
    for (unsigned i = 0; i < 64; ++i) s.bins[i] = 0, s.exch[i] = cin[512 + i], s.cas[i] = cas_init(g.cluster_id(cta), g.rank(cta), i);
    for (unsigned i = 0; i < 16; ++i) s.mins[i] = ~0u, s.maxs[i] = 0x80000000u, s.incs[i] = 0, s.decs[i] = 3;
    for (unsigned i = 0; i < 4; ++i) s.logic[i] = ~0u, s.logic[4 + i] = 0, s.logic[8 + i] = 0x5a5a5a5au;
    for (unsigned i = 0; i < 8; ++i) s.add64[i] = 0, s.addf[i] = 0.f;
  }
  for (unsigned cta = 0; cta < g.ctas(); ++cta) {
    const uint32_t* cin = in.data() + cta * kHistInPerCta;
    const unsigned r = g.rank(cta), nb = (r + 1) % n;
    for (unsigned t = 0; t < 64; ++t) {
      for (unsigned k = 0; k < 8; ++k) {
        const uint32_t v = cin[t * 8 + k];
        const unsigned bin = v % (64 * n);
        c[g.member(cta, bin / 64)].bins[bin % 64] += v >> 24;
        uint32_t& mn = c[g.member(cta, (v >> 4) % n)].mins[v & 15];
        mn = std::min(mn, v);
        uint32_t& mx = c[g.member(cta, (v >> 9) % n)].maxs[(v >> 5) & 15];
        if (int32_t(v) > int32_t(mx)) mx = v;
        uint32_t& ic = c[g.member(cta, (v >> 14) % n)].incs[(v >> 10) & 15];
        ic = ic >= 37 ? 0 : ic + 1;
        uint32_t& dc = c[g.member(cta, (v >> 19) % n)].decs[(v >> 15) & 15];
        dc = (dc == 0 || dc > 29) ? 29 : dc - 1;
        Cta& o6 = c[g.member(cta, (v >> 27) % n)];
        o6.logic[k & 3] &= ~(1u << (v & 31));
        o6.logic[4 + (k & 3)] |= 1u << ((v >> 5) & 31);
        o6.logic[8 + (k & 3)] ^= v;
        Cta& o7 = c[g.member(cta, (v >> 22) % n)];
        o7.add64[k] += (uint64_t(v) << 20) | k;
        o7.addf[(v >> 3) & 7] += float(v & 255);
      }
      Cta& d = c[g.member(cta, nb)];
      c[cta].old_e[t] = d.exch[t];
      d.exch[t] = cin[576 + t];
      const uint32_t expected = cas_init(g.cluster_id(cta), nb, t), swap = cin[t * 8] ^ 0x13579bdfu;
      c[cta].old_c1[t] = d.cas[t];
      if (d.cas[t] == expected) d.cas[t] = swap;
      c[cta].old_c2[t] = d.cas[t];
    }
  }
  vector<uint32_t> out(g.ctas() * kHistOutPerCta, 0);
  for (unsigned cta = 0; cta < g.ctas(); ++cta) {
    const Cta& s = c[cta];
    uint32_t* o = out.data() + cta * kHistOutPerCta;
    for (unsigned t = 0; t < 64; ++t) {
      o[t] = s.bins[t];
      o[164 + t] = s.old_e[t], o[228 + t] = s.old_c1[t], o[292 + t] = s.old_c2[t];
      o[356 + t] = s.exch[t], o[420 + t] = s.cas[t];
    }
    for (unsigned t = 0; t < 16; ++t) o[64 + t] = s.mins[t], o[80 + t] = s.maxs[t], o[96 + t] = s.incs[t], o[112 + t] = s.decs[t];
    for (unsigned t = 0; t < 12; ++t) o[128 + t] = s.logic[t];
    for (unsigned t = 0; t < 8; ++t) {
      o[140 + 2 * t] = uint32_t(s.add64[t]), o[141 + 2 * t] = uint32_t(s.add64[t] >> 32);
      std::memcpy(&o[156 + t], &s.addf[t], 4);
    }
  }
  return out;
}

vector<uint32_t> model_ring(const Geometry& g, const vector<uint32_t>& in) {
  const unsigned n = g.n();
  vector<vector<uint8_t>> buf(g.ctas(), vector<uint8_t>(1024));
  for (unsigned cta = 0; cta < g.ctas(); ++cta) std::memcpy(buf[cta].data(), in.data() + cta * kRingInPerCta, 1024);
  vector<uint32_t> out(g.ctas() * kRingOutPerCta);
  auto u8 = [](const vector<uint8_t>& b, unsigned o) { return uint32_t(b[o]); };
  auto s8 = [](const vector<uint8_t>& b, unsigned o) { return uint32_t(int32_t(int8_t(b[o]))); };
  auto u16 = [](const vector<uint8_t>& b, unsigned o) { return uint32_t(b[o] | b[o + 1] << 8); };
  auto s16 = [](const vector<uint8_t>& b, unsigned o) { return uint32_t(int32_t(int16_t(b[o] | b[o + 1] << 8))); };
  auto u32 = [](const vector<uint8_t>& b, unsigned o) { uint32_t v; std::memcpy(&v, &b[o], 4); return v; };
  for (unsigned cta = 0; cta < g.ctas(); ++cta) {
    const unsigned r = g.rank(cta), nb = (r + 1) % n;
    const vector<uint8_t>& B = buf[g.member(cta, nb)];
    for (unsigned t = 0; t < 64; ++t) {
      uint32_t* w = out.data() + cta * kRingOutPerCta + t * kRingWordsPerThread;
      w[0] = u8(B, (t * 13) % 1024), w[1] = s8(B, (t * 29 + 5) % 1024);
      w[2] = u16(B, 2 * ((t * 7) % 512)), w[3] = s16(B, 2 * ((t * 11 + 3) % 512));
      w[4] = u32(B, 4 * ((t * 5) % 256));
      w[5] = u32(B, 8 * ((t * 3) % 128)), w[6] = u32(B, 8 * ((t * 3) % 128) + 4);
      w[7] = u32(B, 8 * ((t * 5 + 1) % 128)), w[8] = u32(B, 8 * ((t * 5 + 1) % 128) + 4);
      for (unsigned j = 0; j < 4; ++j) w[9 + j] = u32(B, 16 * ((t * 9) % 64) + 4 * j);
      w[13] = u32(B, 16 * (t % 63) + 12);
      w[14] = u8(B, (t * 17 + 1) % 1024), w[15] = s8(B, (t * 19 + 2) % 1024);
      w[16] = u16(B, 2 * ((t * 13) % 512)), w[17] = u32(B, 4 * ((t * 7 + 2) % 256));
      w[18] = u32(B, 8 * ((t * 11) % 128)), w[19] = u32(B, 8 * ((t * 11) % 128) + 4);
      w[20] = u32(B, 8 * ((t * 13 + 5) % 128)), w[21] = u32(B, 8 * ((t * 13 + 5) % 128) + 4);
      for (unsigned j = 0; j < 4; ++j) w[22 + j] = u32(B, 16 * ((t * 3 + 1) % 64) + 4 * j);
      w[26] = u32(buf[cta], 4 * t);
      w[27] = u32(B, 4 * ((t * 3) % 256)), w[28] = u32(B, 4 * ((t * 9 + 7) % 256));
      w[29] = u16(B, 2 * ((t * 5 + 9) % 512)), w[30] = u32(B, 4 * ((t * 15 + 4) % 256));
      w[31] = r | (nb << 8) | (n << 16);
    }
  }
  vector<vector<uint8_t>> after = buf;
  for (unsigned cta = 0; cta < g.ctas(); ++cta) {
    vector<uint8_t>& D = after[g.member(cta, (g.rank(cta) + 1) % n)];
    for (unsigned t = 0; t < 64; ++t) {
      const uint32_t* s = in.data() + cta * kRingInPerCta + 256 + 4 * t;
      uint8_t* q = D.data() + 16 * t;
      switch (t % 6) {
        case 0: case 1: case 4: std::memcpy(q, s, 16); break;
        case 2: q[0] = uint8_t(s[0]), q[3] = uint8_t(s[0] >> 8), q[6] = uint8_t(s[1]), q[7] = uint8_t(s[1] >> 8);
                std::memcpy(q + 12, &s[3], 4); break;
        case 3: std::memcpy(q, &s[0], 4), q[6] = uint8_t(s[1]), q[7] = uint8_t(s[1] >> 8), q[9] = uint8_t(s[2]),
                q[11] = uint8_t(s[2] >> 16); break;
        default: std::memcpy(q + 4, &s[1], 4), std::memcpy(q + 8, &s[2], 4); break;
      }
    }
  }
  for (unsigned cta = 0; cta < g.ctas(); ++cta)
    std::memcpy(out.data() + cta * kRingOutPerCta + 64 * kRingWordsPerThread, after[cta].data(), 1024);
  return out;
}

vector<uint32_t> model_mbar(const Geometry& g, const vector<uint32_t>& in) {
  const unsigned n = g.n();
  vector<uint32_t> out(g.ctas() * kMbarOutPerCta, 0);
  for (unsigned cta = 0; cta < g.ctas(); ++cta) {
    const unsigned prev = g.member(cta, (g.rank(cta) + n - 1) % n);
    const uint32_t* p = in.data() + prev * kMbarInPerCta;
    uint32_t* o = out.data() + cta * kMbarOutPerCta;
    for (unsigned i = 0; i < 64; ++i) o[i] = p[i];
    for (unsigned i = 0; i < 256; ++i) o[64 + i] = p[64 + i];
    uint32_t rw[20];
    for (unsigned i = 0; i < 20; ++i) rw[i] = in[cta * kMbarInPerCta + 448 + i];
    for (unsigned t = 0; t < 64; ++t) {
      const uint32_t add = p[320 + t], op = p[384 + t];
      rw[t % 8] += add;
      uint32_t& w = rw[8 + t % 8];
      switch (t % 8) {
        case 0: w = std::min(w, op); break;
        case 1: w = std::max(w, op); break;
        case 2: w = uint32_t(std::min(int32_t(w), int32_t(op))); break;
        case 3: w = uint32_t(std::max(int32_t(w), int32_t(op))); break;
        case 4: w = w >= 5 ? 0 : w + 1; break;
        case 5: w = (w == 0 || w > 6) ? 6 : w - 1; break;
        case 6: w &= op | 0x01010101u; break;
        default: w |= op & 0x10204080u; break;
      }
      if (t < 8) {
        rw[16] ^= op;
        rw[17] += add ^ op;
        uint64_t v = rw[18] | uint64_t(rw[19]) << 32;
        v += (uint64_t(add) << 32) | op;
        rw[18] = uint32_t(v), rw[19] = uint32_t(v >> 32);
      }
    }
    for (unsigned i = 0; i < 20; ++i) o[320 + i] = rw[i];
    o[340] = o[341] = o[342] = 1;
  }
  return out;
}

unsigned rank_mask(unsigned param, unsigned n, unsigned src) {
  const unsigned all = (1u << n) - 1, m = param & 0xffffu & all;
  if (!(param & 0x10000u)) return m;
  const unsigned k = src % n;
  return ((m << k) | (m >> ((n - k) % n))) & all;
}

vector<uint32_t> model_mc_bulk(const Launch& l, const Geometry& g, const vector<uint32_t>& in) {
  const unsigned n = g.n(), per = n * kMcSliceWords + 1;
  vector<uint32_t> out(g.ctas() * per);
  for (unsigned cta = 0; cta < g.ctas(); ++cta) {
    uint32_t* o = out.data() + cta * per;
    for (unsigned i = 0; i < n * kMcSliceWords; ++i) o[i] = 0xee000000u | (cta << 12) | i;
    for (unsigned s = 0; s < n; ++s)
      if ((rank_mask(l.param, n, s) >> g.rank(cta)) & 1)
        for (unsigned j = 0; j < kMcSliceWords; ++j) o[s * kMcSliceWords + j] = in[g.member(cta, s) * kMcSliceWords + j];
    o[n * kMcSliceWords] = 1;
  }
  return out;
}

vector<uint32_t> model_s2s(const Geometry& g, const vector<uint32_t>& in) {
  const unsigned n = g.n();
  vector<uint32_t> out(g.ctas() * (kS2sWords + 1));
  for (unsigned cta = 0; cta < g.ctas(); ++cta) {
    const unsigned prev = g.member(cta, (g.rank(cta) + n - 1) % n);
    for (unsigned i = 0; i < kS2sWords; ++i) out[cta * (kS2sWords + 1) + i] = in[prev * kS2sWords + i];
    out[cta * (kS2sWords + 1) + kS2sWords] = 1;
  }
  return out;
}

vector<uint32_t> model_tma(const Launch& l, const Geometry& g, const vector<uint32_t>& in) {
  const unsigned n = g.n(), per = n * kTmaSliceWords + 1, mask = l.param & ((1u << n) - 1);
  vector<uint32_t> out(g.ctas() * per);
  for (unsigned cta = 0; cta < g.ctas(); ++cta) {
    uint32_t* o = out.data() + cta * per;
    const unsigned c = g.cluster_id(cta);
    for (unsigned i = 0; i < n * kTmaSliceWords; ++i) o[i] = 0xab000000u | (cta << 12) | i;
    if ((mask >> g.rank(cta)) & 1)
      for (unsigned s = 0; s < n; ++s)
        for (unsigned row = 0; row < kTmaBoxH; ++row)
          for (unsigned col = 0; col < kTmaBoxW; ++col) {
            const unsigned y = c * n * kTmaBoxH + s * kTmaBoxH + row, x = c * 8 + col;
            unsigned byte = row * 128 + col * 4;
            if (l.map.swizzle == 3) byte ^= ((byte >> 7) & 7) << 4;  // Swizzle<3,4,3>
            o[s * kTmaSliceWords + byte / 4] = in[y * kTmaW + x];
          }
    o[n * kTmaSliceWords] = 1;
  }
  return out;
}

void append_record(const std::string& dir, const std::string& name, const vector<uint32_t>& words) {
  std::string file;
  const uint16_t len = uint16_t(name.size());
  const uint8_t eb = 4;
  const uint32_t n = uint32_t(words.size());
  file.append(reinterpret_cast<const char*>(&len), 2).append(name);
  file.append(reinterpret_cast<const char*>(&eb), 1).append(reinterpret_cast<const char*>(&n), 4);
  file.append(reinterpret_cast<const char*>(words.data()), words.size() * 4);
  std::ofstream(dir + "/cluster.bin", std::ios::binary | std::ios::app).write(file.data(), std::streamsize(file.size()));
}

const char* err_name(CUresult r) {
  const char* s = "?";
  cuGetErrorName(r, &s);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--list") {
    for (unsigned i = 0; i < kLaunchCount; ++i) std::printf("%u %u %s\n", i, kLaunches[i].expect, kLaunches[i].name);
    return 0;
  }
  if (argc != 4) {
    std::fprintf(stderr, "usage: record_cluster --list | record_cluster cluster_kernels.ptx outdir index\n");
    return 2;
  }
  const unsigned index = unsigned(std::stoul(argv[3]));
  if (index >= kLaunchCount) return 2;
  const Launch& l = kLaunches[index];
  const std::string dir = argv[2];
  CUmodule mod = load_ptx(argv[1]);
  CUfunction fn;
  CHECK(cuModuleGetFunction(&fn, mod, l.kernel));
  if (l.non_portable) {
    const CUresult r = cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
    if (r != CUDA_SUCCESS) std::printf("%s: cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED) = %s\n", l.name, err_name(r));
  }
  const vector<uint32_t> input = inputs(l);
  CUdeviceptr in, out;
  CHECK(cuMemAlloc(&in, input.size() * 4));
  CHECK(cuMemAlloc(&out, size_t(l.out_words) * 4));
  CHECK(cuMemcpyHtoD(in, input.data(), input.size() * 4));
  CHECK(cuMemsetD32(out, 0xdeadbeef, l.out_words));
  CUtensorMap map;
  unsigned param = l.param;
  void* args_plain[] = {&in, &out, &param};
  void* args_map[] = {&map, &in, &out, &param};
  if (l.has_map) {
    cuuint64_t dims[5], strides[4];
    cuuint32_t box[5], es[5];
    for (unsigned i = 0; i < 5; ++i) dims[i] = l.map.dims[i], box[i] = l.map.box[i], es[i] = l.map.element_strides[i];
    for (unsigned i = 0; i < 4; ++i) strides[i] = l.map.strides[i];
    CHECK(cuTensorMapEncodeTiled(&map, CUtensorMapDataType(l.map.type), l.map.rank, reinterpret_cast<void*>(in), dims,
                                 strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CUtensorMapSwizzle(l.map.swizzle),
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  }
  CUlaunchConfig cfg{};
  cfg.gridDimX = l.grid.x, cfg.gridDimY = l.grid.y, cfg.gridDimZ = l.grid.z;
  cfg.blockDimX = l.block.x, cfg.blockDimY = l.block.y, cfg.blockDimZ = l.block.z;
  cfg.sharedMemBytes = l.dynamic_smem;
  CUlaunchAttribute attr{};
  if (l.cluster.x != 0) {
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = l.cluster.x, attr.value.clusterDim.y = l.cluster.y, attr.value.clusterDim.z = l.cluster.z;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    int size = -1, active = -1;
    const CUresult r1 = cuOccupancyMaxPotentialClusterSize(&size, fn, &cfg);
    const CUresult r2 = cuOccupancyMaxActiveClusters(&active, fn, &cfg);
    std::printf("%s: max potential cluster size %d (%s), max active clusters %d (%s)\n", l.name, size, err_name(r1),
                active, err_name(r2));
  }
  const CUresult launched = cuLaunchKernelEx(&cfg, fn, l.has_map ? args_map : args_plain, nullptr);
  if (launched != CUDA_SUCCESS) {
    const char* why = "?";
    cuGetErrorString(launched, &why);
    std::printf("%s: LAUNCH ERROR %s (%d): %s [expect %u]\n", l.name, err_name(launched), int(launched), why, l.expect);
    append_record(dir, l.name, {});
    return 0;
  }
  const CUresult ran = cuCtxSynchronize();
  if (ran != CUDA_SUCCESS) {
    const char* why = "?";
    cuGetErrorString(ran, &why);
    std::printf("%s: FAULT %s (%d): %s [expect %u]\n", l.name, err_name(ran), int(ran), why, l.expect);
    append_record(dir, l.name, {});
    return 0;
  }
  vector<uint32_t> got(l.out_words);
  CHECK(cuMemcpyDtoH(got.data(), out, size_t(l.out_words) * 4));
  unsigned unwritten = 0;
  for (uint32_t w : got) unwritten += w == 0xdeadbeefu;
  append_record(dir, l.name, got);
  std::printf("%s: %u words, %u still 0xdeadbeef [expect %u]\n", l.name, l.out_words, unwritten, l.expect);
  const Geometry g = geometry_of(l);
  const std::string k = l.kernel;
  auto compare = [&](const vector<uint32_t>& want) {
    for (size_t i = 0; i < want.size(); ++i) expect_word(got, i, want[i], "model");
  };
  if (k == "cluster_ids" || k == "cluster_ids_c2") check_ids(l, g, got, true);
  else if (k == "mapa_range") dump_mapa_range(l, got);
  else if (k == "cta_window") {
    for (unsigned cta = 0; cta < g.ctas(); ++cta)
      std::printf("  cta %u rank %u: address %08x read %08x own variable after %08x\n", cta, got[cta * 4 + 3],
                  got[cta * 4], got[cta * 4 + 1], got[cta * 4 + 2]);
  } else if (k == "dsmem_histogram" || k == "dsmem_histogram_ptx") compare(model_hist(g, input));
  else if (k == "dsmem_ring") compare(model_ring(g, input));
  else if (k == "remote_mbarrier") compare(model_mbar(g, input));
  else if (k == "multicast_bulk") compare(model_mc_bulk(l, g, input));
  else if (k == "bulk_s2s") compare(model_s2s(g, input));
  else if (k == "multicast_tma") compare(model_tma(l, g, input));
  std::printf("  model mismatches: %u\n", mismatches);
  if (k == "remote_mbarrier" || k == "multicast_bulk" || k == "bulk_s2s" || k == "multicast_tma") {
    // completion flags, one per CTA
    std::printf("  flags:");
    const unsigned n = g.n();
    for (unsigned cta = 0; cta < g.ctas(); ++cta) {
      if (k == "remote_mbarrier") std::printf(" %u%u%u", got[cta * kMbarOutPerCta + 340], got[cta * kMbarOutPerCta + 341], got[cta * kMbarOutPerCta + 342]);
      else if (k == "multicast_bulk") std::printf(" %u", got[cta * (n * kMcSliceWords + 1) + n * kMcSliceWords]);
      else if (k == "bulk_s2s") std::printf(" %u", got[cta * (kS2sWords + 1) + kS2sWords]);
      else std::printf(" %u", got[cta * (n * kTmaSliceWords + 1) + n * kTmaSliceWords]);
    }
    std::printf("\n");
  }
  return 0;
}
