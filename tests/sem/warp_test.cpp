// Warp-synchronous operations (001_23fdd5978b24a3ed.txt): shfl.sync §9.7.9.6 against its
// pseudo-code, vote.sync §9.7.13.9, match.sync §9.7.13.10, activemask §9.7.13.11, redux.sync
// §9.7.13.12, elect.sync §9.7.13.14, bar.warp.sync §9.7.13.2.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "harness.h"

namespace ptxvm::test {
namespace {

// out[g*2], out[g*2+1] for global thread g; warp w reads its operands from in[w*2], in[w*2+1].
const char* kPrologue =
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\nmad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "mul.wide.u32 %rd1, %r4, 8;\nadd.s64 %rd2, %rd_out, %rd1;\nshr.u32 %r5, %r4, 5;\nmul.wide.u32 %rd3, %r5, 8;\n"
    "add.s64 %rd4, %rd_in, %rd3;\nld.global.u32 %r6, [%rd4];\nld.global.u32 %r7, [%rd4+4];\n"
    "and.b32 %r8, %r4, 31;\n";

// The §9.7.9.6 pseudo-code for lane `lane` with a[] the lanes' inputs (an H200 gives the same d
// and p for every lane and configuration of ShflEveryModeAgainstPseudoCode).
std::pair<uint32_t, bool> shfl_ref(int mode, int lane, uint32_t b, uint32_t c, const uint32_t* a) {
  int bval = static_cast<int>(b & 31), cval = static_cast<int>(c & 31), segmask = static_cast<int>((c >> 8) & 31);
  int max_lane = (lane & segmask) | (cval & ~segmask), min_lane = lane & segmask, j = 0;
  bool pval = false;
  switch (mode) {
  case 0: j = lane - bval; pval = j >= max_lane; break;
  case 1: j = lane + bval; pval = j <= max_lane; break;
  case 2: j = lane ^ bval; pval = j <= max_lane; break;
  default: j = min_lane | (bval & ~segmask); pval = j <= max_lane; break;
  }
  if (!pval) j = lane;
  return {a[j], pval};
}

TEST(Warp, ShflEveryModeAgainstPseudoCode) {
  const std::vector<uint32_t> bs = {0, 1, 2, 3, 5, 8, 16, 31, 33, 0xffffffe1u};
  const std::vector<uint32_t> cs = {0x1f, 0x0, 0x0f, 0x1c1f, 0x181f, 0x1f00, 0x1003, 0x0c07, 0xffffe01f, 0x1e00};
  std::vector<uint32_t> in;
  for (uint32_t b : bs)
    for (uint32_t c : cs) in.push_back(b), in.push_back(c);
  const uint32_t warps = static_cast<uint32_t>(bs.size() * cs.size());
  const char* modes[] = {"up", "down", "bfly", "idx"};
  for (int mode = 0; mode < 4; ++mode) {
    Harness h;
    h.load(kernel_ptx(std::string(kPrologue) + "mad.lo.s32 %r9, %r4, 3, 7;\nshfl.sync." + modes[mode] +
                      ".b32 %r10|%p1, %r9, %r6, %r7, 0xffffffff;\nselp.u32 %r11, 1, 0, %p1;\n"
                      "st.global.v2.u32 [%rd2], {%r10, %r11};\n"));
    uint64_t out = h.buffer(std::vector<uint32_t>(warps * 64, 0)), din = h.buffer(in);
    auto r = h.launch("k", {warps / 4}, {128}, {arg(out), arg(din)}, 2);
    ASSERT_TRUE(r.ok) << r.error;
    auto v = h.read<uint32_t>(out, warps * 64);
    for (uint32_t w = 0; w < warps; ++w) {
      uint32_t a[32];
      for (uint32_t l = 0; l < 32; ++l) a[l] = (w * 32 + l) * 3 + 7;
      for (int l = 0; l < 32; ++l) {
        auto [d, p] = shfl_ref(mode, l, in[w * 2], in[w * 2 + 1], a);
        size_t g = w * 32 + static_cast<size_t>(l);
        EXPECT_EQ(v[g * 2], d) << modes[mode] << " b " << in[w * 2] << " c " << std::hex << in[w * 2 + 1] << " lane " << l;
        EXPECT_EQ(v[g * 2 + 1], p ? 1u : 0u) << modes[mode] << " lane " << l;
      }
    }
  }
}

TEST(Warp, ShflImmediatesAndPartialMask) {
  // Lanes 0..15 shuffle among themselves (membermask 0xffff); d without |p.
  Harness h;
  h.load(kernel_ptx(std::string(kPrologue) +
                    "mov.u32 %r10, 0;\nsetp.ge.u32 %p1, %r8, 16;\n@%p1 bra SKIP;\n"
                    "shfl.sync.bfly.b32 %r10, %r8, 0x3, 0xf, 0xffff;\nSKIP:\n"
                    "shfl.sync.idx.b32 %r11, 1234, 0, 0x1f, 0xffffffff;\n"
                    "st.global.v2.u32 [%rd2], {%r10, %r11};\n"));
  uint64_t out = h.buffer(std::vector<uint32_t>(64, 0)), din = h.buffer(std::vector<uint32_t>(2, 0));
  ASSERT_TRUE(h.launch("k", {1}, {32}, {arg(out), arg(din)}).ok);
  auto v = h.read<uint32_t>(out, 64);
  for (uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(v[l * 2], l < 16 ? l ^ 3 : 0) << l;  // c = 0xf: lanes beyond 15 are out of range; none here
    EXPECT_EQ(v[l * 2 + 1], 1234u);
  }
}

TEST(Warp, VoteMatchActivemaskElect) {
  // Predicate p = lane % 3 == 0; value = lane / 4 (groups of four lanes match).
  Harness h;
  h.load(kernel_ptx(std::string(kPrologue) +
                    "rem.u32 %r9, %r8, 3;\nsetp.eq.u32 %p1, %r9, 0;\n"
                    "vote.sync.ballot.b32 %r10, %p1, 0xffffffff;\n"
                    "vote.sync.any.pred %p2, %p1, 0xffffffff;\nvote.sync.all.pred %p3, !%p1, 0xffffffff;\n"
                    "vote.sync.uni.pred %p4, %p1, 0xffffffff;\nvote.sync.all.pred %p5, %p2, 0xffffffff;\n"
                    "selp.u32 %r11, 1, 0, %p2;\nselp.u32 %r12, 2, 0, %p3;\nselp.u32 %r13, 4, 0, %p4;\n"
                    "selp.u32 %r14, 8, 0, %p5;\nor.b32 %r11, %r11, %r12;\nor.b32 %r11, %r11, %r13;\n"
                    "or.b32 %r11, %r11, %r14;\n"
                    "shr.u32 %r15, %r8, 2;\nmatch.any.sync.b32 %r16, %r15, 0xffffffff;\n"
                    "mul.wide.u32 %rd5, %r15, 1;\nshl.b64 %rd5, %rd5, 32;\nmatch.any.sync.b64 %r17, %rd5, 0xffffffff;\n"
                    "match.all.sync.b32 %r18|%p6, %r15, 0xffffffff;\nselp.u32 %r19, 16, 0, %p6;\n"
                    "match.all.sync.b32 %r20|%p7, 77, 0xffffffff;\nselp.u32 %r21, 32, 0, %p7;\n"
                    "match.all.sync.b64 _|%p8, %rd5, 0xffffffff;\nselp.u32 %r22, 64, 0, %p8;\n"
                    "or.b32 %r11, %r11, %r19;\nor.b32 %r11, %r11, %r21;\nor.b32 %r11, %r11, %r22;\n"
                    "mov.u32 %r23, 0;\nmov.u32 %r24, 99;\nmov.u32 %r25, 0;\nsetp.lt.u32 %p9, %r8, 5;\n@%p9 bra SKIP;\n"
                    "activemask.b32 %r23;\nelect.sync %r24|%p10, 0xffffffe0;\nselp.u32 %r25, 1, 0, %p10;\n"
                    "SKIP:\nst.global.v2.u32 [%rd2], {%r10, %r11};\nmul.wide.u32 %rd10, %r8, 16;\nadd.s64 %rd11, %rd_out, %rd10;\n"
                    "st.global.v4.u32 [%rd11+2048], {%r16, %r17, %r18, %r20};\n"
                    "st.global.v2.u32 [%rd2+768], {%r23, %r24};\nst.global.u32 [%rd2+1024], %r25;\n"));
  uint64_t out = h.buffer(std::vector<uint32_t>(640, 0)), din = h.buffer(std::vector<uint32_t>(2, 0));
  auto r = h.launch("k", {1}, {32}, {arg(out), arg(din)});
  ASSERT_TRUE(r.ok) << r.error;
  auto v = h.read<uint32_t>(out, 640);
  uint32_t ballot = 0;
  for (uint32_t l = 0; l < 32; l += 3) ballot |= 1u << l;
  for (uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(v[l * 2], ballot);
    EXPECT_EQ(v[l * 2 + 1], 1u | 8u | 32u) << l;  // any; not all of !p; not uniform; all agree on any; 77 matches
    uint32_t group = 0xfu << (l & ~3u);
    EXPECT_EQ(v[512 + l * 4], group) << l;
    EXPECT_EQ(v[512 + l * 4 + 1], group) << l;
    EXPECT_EQ(v[512 + l * 4 + 2], 0u) << l;        // values differ: d = 0
    EXPECT_EQ(v[512 + l * 4 + 3], 0xffffffffu) << l;
    EXPECT_EQ(v[192 + l * 2], l < 5 ? 0u : 0xffffffe0u) << l;
    EXPECT_EQ(v[192 + l * 2 + 1], l < 5 ? 99u : 5u) << l;  // the lowest lane of the mask that runs it
    EXPECT_EQ(v[256 + l * 2], l == 5 ? 1u : 0u) << l;
  }
}

// Runs `ops` (each `redux.sync... %rN, %r9, mask`, writing %r10 upwards) on lane values
// `vals` for the lanes below `active`; returns per lane the results, 12 words each.
std::vector<uint32_t> run_redux(const std::vector<std::string>& ops, const std::vector<uint32_t>& vals, uint32_t active,
                                const std::string& target = "sm_90") {
  std::string body = std::string(kPrologue) +
                     "mul.wide.u32 %rd5, %r8, 4;\nadd.s64 %rd6, %rd_in, %rd5;\nld.global.u32 %r9, [%rd6];\n"
                     "mul.wide.u32 %rd7, %r8, 48;\nadd.s64 %rd8, %rd_out, %rd7;\n"
                     "setp.ge.u32 %p1, %r8, " + std::to_string(active) + ";\n@%p1 bra SKIP;\n";
  for (size_t i = 0; i < ops.size(); ++i) {
    std::string d = "%r" + std::to_string(10 + i);
    body += ops[i] + " " + d + ", %r9, " + std::to_string((uint64_t{1} << active) - 1) + ";\n" +
            "st.global.u32 [%rd8+" + std::to_string(4 * i) + "], " + d + ";\n";
  }
  body += "SKIP:\n";
  Harness h;
  h.load(kernel_ptx(body, target));
  uint64_t out = h.buffer(std::vector<uint32_t>(32 * 12, 0)), din = h.buffer(vals);
  auto r = h.launch("k", {1}, {32}, {arg(out), arg(din)});
  EXPECT_TRUE(r.ok) << r.error;
  return h.read<uint32_t>(out, 32 * 12);
}

TEST(Warp, ReduxIntegerOps) {
  // Values that overflow the sum and mix signs; lanes 0..23 take part (membermask 0xffffff).
  std::vector<uint32_t> vals(32);
  for (uint32_t l = 0; l < 32; ++l) vals[l] = l * 0x0b000001u + (l % 5 == 0 ? 0x80000000u : 0);
  const uint32_t active = 24;
  auto v = run_redux({"redux.sync.add.u32", "redux.sync.add.s32", "redux.sync.min.u32", "redux.sync.max.u32",
                      "redux.sync.min.s32", "redux.sync.max.s32", "redux.sync.and.b32", "redux.sync.or.b32",
                      "redux.sync.xor.b32"},
                     vals, active);
  uint32_t sum = 0, umin = ~0u, umax = 0, band = ~0u, bor = 0, bxor = 0;
  int32_t smin = INT32_MAX, smax = INT32_MIN;
  for (uint32_t l = 0; l < active; ++l) {
    sum += vals[l], umin = std::min(umin, vals[l]), umax = std::max(umax, vals[l]);
    smin = std::min(smin, static_cast<int32_t>(vals[l])), smax = std::max(smax, static_cast<int32_t>(vals[l]));
    band &= vals[l], bor |= vals[l], bxor ^= vals[l];
  }
  std::vector<uint32_t> want = {sum, sum, umin, umax, static_cast<uint32_t>(smin), static_cast<uint32_t>(smax), band, bor, bxor};
  for (uint32_t l = 0; l < 32; ++l)
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(v[l * 12 + i], l < active ? want[i] : 0u) << "lane " << l << " op " << i;
}

// redux.sync.{min,max}{.abs}{.NaN}.f32 (§9.7.13.12): +0.0 > -0.0; .abs compares magnitudes;
// .NaN makes any NaN input give the canonical NaN; without it NaNs are skipped, and all-NaN
// inputs give the canonical NaN.
uint32_t redux_f32_ref(const std::vector<uint32_t>& v, uint32_t active, bool max, bool abs, bool nan) {
  bool have = false, any_nan = false;
  uint32_t acc = 0x7fffffffu;
  for (uint32_t l = 0; l < active; ++l) {
    uint32_t x = abs ? v[l] & 0x7fffffffu : v[l];
    float f = std::bit_cast<float>(x);
    if (std::isnan(f)) {
      any_nan = true;
      continue;
    }
    float a = std::bit_cast<float>(acc);
    // Order: -0.0 below +0.0, otherwise by value.
    auto key = [](float y) { return y == 0 ? (std::signbit(y) ? -0.5 : 0.5) * 1e-300 : static_cast<double>(y); };
    if (!have || (max ? key(f) > key(a) : key(f) < key(a))) acc = x, have = true;
  }
  return nan && any_nan ? 0x7fffffffu : acc;
}

TEST(Warp, ReduxFloat) {
  const std::vector<std::vector<uint32_t>> cases = {
      {0x3f800000u, 0xbf800000u, 0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x00000001u, 0x80000001u},
      {0x80000000u, 0x00000000u, 0x80000000u},
      {0x7fc00000u, 0x40000000u, 0xc0400000u, 0x7f800001u},
      {0x7fc00000u, 0xffc00000u},
      {0xc2000000u, 0x41f00000u, 0x00800000u, 0x80000010u, 0x7f7fffffu, 0xff7fffffu},
  };
  std::vector<std::string> ops;
  for (const char* o : {"min", "max"})
    for (const char* a : {"", ".abs"})
      for (const char* n : {"", ".NaN"}) ops.push_back(std::string("redux.sync.") + o + a + n + ".f32");
  for (const auto& c : cases) {
    std::vector<uint32_t> vals(32, 0);
    std::copy(c.begin(), c.end(), vals.begin());
    auto active = static_cast<uint32_t>(c.size());
    auto v = run_redux(ops, vals, active, "sm_100a");
    for (size_t i = 0; i < ops.size(); ++i) {
      uint32_t want = redux_f32_ref(vals, active, i >= 4, (i & 2) != 0, (i & 1) != 0);
      for (uint32_t l = 0; l < active; ++l) EXPECT_EQ(v[l * 12 + i], want) << ops[i] << " lane " << l << " case " << c[0];
    }
  }
}

TEST(Warp, BarWarpSyncWaitsForDivergentLanes) {
  // Odd lanes run a longer path; bar.warp.sync joins them before every lane reads the others' stores.
  Harness h;
  h.load(kernel_ptx(std::string(kPrologue) +
                    ".shared .align 4 .b32 s[32];\nmov.u64 %rd5, s;\nmul.wide.u32 %rd6, %r8, 4;\nadd.s64 %rd7, %rd5, %rd6;\n"
                    "and.b32 %r9, %r8, 1;\nsetp.eq.u32 %p1, %r9, 0;\n@%p1 bra EVEN;\n"
                    "mov.u32 %r10, 0;\nLOOP:\nadd.s32 %r10, %r10, 1;\nsetp.lt.u32 %p2, %r10, 100;\n@%p2 bra LOOP;\n"
                    "st.shared.u32 [%rd7], %r8;\nbar.warp.sync 0xffffffff;\nbra JOIN;\n"
                    "EVEN:\nst.shared.u32 [%rd7], %r8;\nbar.warp.sync 0xffffffff;\n"
                    "JOIN:\nsub.s32 %r11, 31, %r8;\nmul.wide.u32 %rd8, %r11, 4;\nadd.s64 %rd9, %rd5, %rd8;\n"
                    "ld.shared.u32 %r12, [%rd9];\nst.global.u32 [%rd2], %r12;\n"));
  uint64_t out = h.buffer(std::vector<uint32_t>(64, 0)), din = h.buffer(std::vector<uint32_t>(2, 0));
  auto r = h.launch("k", {1}, {32}, {arg(out), arg(din)});
  ASSERT_TRUE(r.ok) << r.error;
  auto v = h.read<uint32_t>(out, 64);
  for (uint32_t l = 0; l < 32; ++l) EXPECT_EQ(v[l * 2], 31 - l);
}

// Runs `body` after kPrologue on one warp of 32 threads; returns the launch result and out[0..63].
std::pair<LaunchResult, std::vector<uint32_t>> run_warp(const std::string& body) {
  Harness h;
  h.load(kernel_ptx(std::string(kPrologue) + body));
  uint64_t out = h.buffer(std::vector<uint32_t>(64, 0)), din = h.buffer(std::vector<uint32_t>(2, 0));
  auto r = h.launch("k", {1}, {32}, {arg(out), arg(din)});
  return {r, h.read<uint32_t>(out, 64)};
}

// Even lanes wait in a loop; odd lanes go first. Each arm then runs its own instruction of one
// kind with the full mask (%p1: even lane).
const char* kArms = "and.b32 %r9, %r8, 1;\nsetp.eq.u32 %p1, %r9, 0;\n@!%p1 bra ODD;\n"
                    "mov.u32 %r20, 0;\nLOOP:\nadd.s32 %r20, %r20, 1;\nsetp.lt.u32 %p2, %r20, 50;\n@%p2 bra LOOP;\n";

TEST(Warp, ShflRendezvousAcrossBranches) {
  // §9.7.9.6 (sm_70+): the lanes of the mask wait for each other at shfl.sync of the same
  // qualifiers, not the same instruction. Each lane reads lane (l+1)%32, receiving the value
  // that lane supplied to its own shfl: even lanes supply 10*l, odd lanes 100*l+1.
  auto [r, v] = run_warp(std::string(kArms) +
                         "mul.lo.u32 %r10, %r8, 10;\nadd.u32 %r11, %r8, 1;\n"
                         "shfl.sync.idx.b32 %r12|%p3, %r10, %r11, 0x1f, 0xffffffff;\nbra JOIN;\n"
                         "ODD:\nmad.lo.u32 %r13, %r8, 100, 1;\nadd.u32 %r14, %r8, 1;\n"
                         "shfl.sync.idx.b32 %r12|%p3, %r13, %r14, 0x1f, 0xffffffff;\n"
                         "JOIN:\nselp.u32 %r15, 1, 0, %p3;\nst.global.v2.u32 [%rd2], {%r12, %r15};\n");
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t l = 0; l < 32; ++l) {
    uint32_t src = (l + 1) % 32;
    EXPECT_EQ(v[l * 2], src % 2 == 0 ? src * 10 : src * 100 + 1) << l;
    EXPECT_EQ(v[l * 2 + 1], 1u) << l;
  }
}

TEST(Warp, VoteReduxRendezvousAcrossBranches) {
  // Both arms: ballot of p and redux.add of a value. Even lanes: p true, value l; odd lanes:
  // p = (l % 4 == 1), value 1000.
  auto [r, v] = run_warp(std::string(kArms) +
                         "setp.eq.u32 %p4, %r9, 0;\nvote.sync.ballot.b32 %r10, %p4, 0xffffffff;\n"
                         "redux.sync.add.u32 %r11, %r8, 0xffffffff;\nbra JOIN;\n"
                         "ODD:\nand.b32 %r14, %r8, 3;\nsetp.eq.u32 %p6, %r14, 1;\nmov.u32 %r15, 1000;\n"
                         "vote.sync.ballot.b32 %r10, %p6, 0xffffffff;\nredux.sync.add.u32 %r11, %r15, 0xffffffff;\n"
                         "JOIN:\nst.global.v2.u32 [%rd2], {%r10, %r11};\n");
  ASSERT_TRUE(r.ok) << r.error;
  uint32_t ballot = 0, sum = 0;
  for (uint32_t l = 0; l < 32; ++l) {
    if (l % 2 == 0 || l % 4 == 1) ballot |= 1u << l;
    sum += l % 2 == 0 ? l : 1000;
  }
  for (uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(v[l * 2], ballot) << l;
    EXPECT_EQ(v[l * 2 + 1], sum) << l;
  }
}

TEST(Warp, MatchAndElectResultsAcrossBranches) {
  // match.any: even lanes supply l, odd lanes 1000 (all odd lanes match); elect: lane 0 leads
  // both arms. Stored: {match, leader << 1 | is_leader}.
  auto [r, v] = run_warp(std::string(kArms) +
                         "match.any.sync.b32 %r12, %r8, 0xffffffff;\nelect.sync %r13|%p5, 0xffffffff;\nbra JOIN;\n"
                         "ODD:\nmov.u32 %r15, 1000;\nmatch.any.sync.b32 %r12, %r15, 0xffffffff;\n"
                         "elect.sync %r13|%p5, 0xffffffff;\n"
                         "JOIN:\nselp.u32 %r16, 1, 0, %p5;\nshl.b32 %r13, %r13, 1;\nor.b32 %r13, %r13, %r16;\n"
                         "st.global.v2.u32 [%rd2], {%r12, %r13};\n");
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(v[l * 2], l % 2 == 0 ? 1u << l : 0xaaaaaaaau) << l;
    EXPECT_EQ(v[l * 2 + 1], l == 0 ? 1u : 0u) << l;
  }
}

TEST(Warp, RendezvousSkipsExitedLanes) {
  // Lanes 24..31 exit; the others shuffle in two arms with the full mask (§9.7.9.6 waits for
  // the non-exited threads only). bfly 1 stays within the live lanes.
  auto [r, v] = run_warp("setp.ge.u32 %p7, %r8, 24;\n@%p7 exit;\n" + std::string(kArms) +
                         "shfl.sync.bfly.b32 %r12, %r8, 1, 0x1f, 0xffffffff;\nbra JOIN;\n"
                         "ODD:\nadd.u32 %r13, %r8, 500;\nshfl.sync.bfly.b32 %r12, %r13, 1, 0x1f, 0xffffffff;\n"
                         "JOIN:\nst.global.u32 [%rd2], %r12;\n");
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t l = 0; l < 32; ++l) {
    uint32_t src = l ^ 1;
    EXPECT_EQ(v[l * 2], l >= 24 ? 0u : src % 2 == 0 ? src : src + 500) << l;
  }
}

TEST(Warp, RendezvousOfDifferentKindsIsReported) {
  // Even lanes at shfl.sync, odd lanes at vote.sync, each mask naming the other: undefined
  // (§9.7.13: the same qualifiers are required), reported rather than deadlocked.
  auto [r, v] = run_warp(std::string(kArms) +
                         "shfl.sync.idx.b32 %r12, %r8, 0, 0x1f, 0xffffffff;\nbra JOIN;\n"
                         "ODD:\nvote.sync.ballot.b32 %r12, %p1, 0xffffffff;\nJOIN:\n");
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("different kinds or qualifiers"), std::string::npos) << r.error;
  // Different qualifiers of one instruction are different kinds too.
  auto [r2, v2] = run_warp(std::string(kArms) +
                           "shfl.sync.idx.b32 %r12, %r8, 0, 0x1f, 0xffffffff;\nbra JOIN;\n"
                           "ODD:\nshfl.sync.up.b32 %r12, %r8, 1, 0, 0xffffffff;\nJOIN:\n");
  ASSERT_FALSE(r2.ok);
  EXPECT_NE(r2.error.find("different kinds or qualifiers"), std::string::npos) << r2.error;
}

TEST(Warp, LaneOutsideItsMembermaskIsReported) {
  // "The behavior is undefined if the executing thread is not in the membermask" (§9.7.13.9).
  auto [r, v] = run_warp("vote.sync.ballot.b32 %r12, %p1, 0xfffffffe;\n");
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("lane 0 is not in its membermask 0xfffffffe"), std::string::npos) << r.error;
}

TEST(Warp, ShflRendezvousWithLanesArrivingLaterAtTheSameInstruction) {
  // Lanes 0..15 reach the shfl first and park; lanes 16..31 arrive at the same instruction after
  // a loop. They exchange across the halves (bfly 16).
  auto [r, v] = run_warp("setp.lt.u32 %p1, %r8, 16;\n@%p1 bra SHFL;\nmov.u32 %r20, 0;\nLOOP:\n"
                         "add.s32 %r20, %r20, 1;\nsetp.lt.u32 %p2, %r20, 20;\n@%p2 bra LOOP;\n"
                         "SHFL:\nmul.lo.u32 %r10, %r8, 3;\nshfl.sync.bfly.b32 %r12, %r10, 16, 0x1f, 0xffffffff;\n"
                         "st.global.u32 [%rd2], %r12;\n");
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t l = 0; l < 32; ++l) EXPECT_EQ(v[l * 2], (l ^ 16) * 3) << l;
}

}  // namespace
}  // namespace ptxvm::test
