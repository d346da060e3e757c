// Parallel synchronization and communication (PTX §9.7.13), 001_23fdd5978b24a3ed.txt.
#include "isa/rows.h"

namespace ptxvm::isa::rows {

namespace {

constexpr const char* kAtomTypes =
    ".b16 .b32 .b64 .b128 .u32 .u64 .s32 .s64 .f32 .f64 .f16 .f16x2 .bf16 .bf16x2";

// Shared by atom and red (§9.7.13.5, §9.7.13.6 "PTX ISA notes" / "Target ISA notes").
std::vector<std::vector<std::string>> atomic_variants(bool atom) {
  std::vector<std::vector<std::string>> v = {
      {"scope", "5.0 sm_60"},
      {"sem", "6.0 sm_70"},
      {"op=.add && type=.f64", "5.0 sm_60"},
      {"type=.f16x2", "6.2 sm_60"},
      {atom ? "type=.f16,.b16" : "type=.f16", "6.3 sm_70"},
      {"hint", "7.4 sm_80"},
      {"type=.bf16,.bf16x2", "7.8 sm_90"},
      {"scope=.cluster || space=.shared::cluster", "7.8 sm_90"},
      {"space=.shared::cta", "7.8 sm_30"},
      {"vec", "8.1 sm_90"}};
  if (atom) {
    v.push_back({"type=.b128", "8.3 sm_90"});
    v.push_back({"type=.b128 && scope=.sys", "8.4 sm_90"});
  }
  return v;
}

std::vector<std::vector<std::string>> atomic_rules() {
  return {
      {"bit-ops", "op=.and,.or,.xor => type=.b32,.b64", ".and, .or and .xor need .b32 or .b64"},
      {"inc-dec", "op=.inc,.dec => type=.u32", ".inc and .dec need .u32"},
      {"cas-types", "op=.cas => type=.b16,.b32,.b64,.b128", ".cas needs .b16, .b32, .b64 or .b128"},
      {"exch-types", "op=.exch => type=.b32,.b64,.b128", ".exch needs .b32, .b64 or .b128"},
      {"add-types", "op=.add => type=.u32,.u64,.s32,.f32,.f64,.f16,.f16x2,.bf16,.bf16x2",
       "no such .add type"},
      {"minmax-types", "op=.min,.max => type=.u32,.u64,.s32,.s64,.f16,.f16x2,.bf16,.bf16x2",
       "no such .min/.max type"},
      {"half-noftz",
       "(type=.f16,.f16x2,.bf16,.bf16x2 => noftz) && (noftz => type=.f16,.f16x2,.bf16,.bf16x2)",
       "half-precision atomics are written .noftz"},
      {"half-scalar-add", "type=.f16,.f16x2,.bf16,.bf16x2 && !vec => op=.add",
       "scalar half-precision atomics are .add"},
      {"vec-global", "vec => !space || space=.global", "vector atomics need .global"},
      {"vec-types", "vec => type=.f32,.f16,.bf16,.f16x2,.bf16x2 && (type=.f32 => op=.add)",
       "vector atomics take .f32 (.add) or half-precision types"},
      {"vec-size", "vec=.v8 => type=.f16,.bf16", ".v8 needs .f16 or .bf16"},
      {"hint-global", "hint => space!=.shared,.shared::cta,.shared::cluster",
       ".L2::cache_hint applies to global memory"},
  };
}

// mbarrier.arrive and mbarrier.arrive_drop share their forms (§9.7.13.15.13-14).
Row mbarrier_arrive(const char* m, const char* sec) {
  return {m, sec,
       "kind? .expect_tx .noComplete; sem? .release .relaxed; scope? .cta .cluster; space? .shared "
       ".shared::cta .shared::cluster; type .b64",
       "_?[space=.shared::cluster], d?[space!=.shared::cluster]:.b64, m, "
       "a?+[kind=.expect_tx,.noComplete]:.u32",
       "7.0 sm_80",
       {{"space=.shared::cta", "7.8 sm_80"},
        {"space=.shared::cluster || kind=.expect_tx", "8.0 sm_90"},
        {"sem=.release || scope", "8.0 sm_80"},
        {"scope=.cluster", "8.0 sm_90"},
        {"sem=.relaxed", "8.6 sm_90"}},
       {{"nocomplete-form",
         "kind=.noComplete => sem!=.relaxed && scope!=.cluster && space!=.shared::cluster",
         ".noComplete takes only .release, .cta and .shared::cta"},
        {"sem-scope", "(sem => scope) && (scope => sem)", ".sem and .scope go together"}}};
}

}  // namespace

std::vector<Row> sync() {
  const std::string atom_axes =
      std::string("sem? @sem; scope? @scope; space? .global .shared .shared::cta .shared::cluster; "
                  "op .and .or .xor .cas .exch .add .inc .dec .min .max; noftz? .noftz; hint? "
                  ".L2::cache_hint; vec? .v2 .v4 .v8; type ") +
      kAtomTypes;
  const std::string red_axes =
      "sem? .relaxed .release; scope? @scope; space? .global .shared .shared::cta "
      ".shared::cluster; "
      "op .and .or .xor .add .inc .dec .min .max; noftz? .noftz; hint? .L2::cache_hint; vec? .v2 "
      ".v4 .v8; "
      "type .b32 .b64 .u32 .u64 .s32 .s64 .f32 .f64 .f16 .f16x2 .bf16 .bf16x2";
  auto red_rules = atomic_rules();
  red_rules.erase(red_rules.begin() + 2, red_rules.begin() + 4); // no .cas/.exch in red
  return {
      {"bar.sync",
       "9.7.13.1",
       "cta? .cta; sync .sync",
       "a:.u32, a?:.u32",
       "1.0 sm_20",
       {{"cta", "7.8 sm_20"}}},
      {"bar.arrive",
       "9.7.13.1",
       "cta? .cta; arrive .arrive",
       "a:.u32, a:.u32",
       "2.0 sm_20",
       {{"cta", "7.8 sm_20"}}},
      {"bar.red",
       "9.7.13.1",
       "cta? .cta; red .red; op .popc .and .or; type .u32 .pred",
       "d:type, a:.u32, a?:.u32, p:.pred",
       "2.0 sm_20",
       {{"cta", "7.8 sm_20"}},
       {{"popc-u32", "(op=.popc => type=.u32) && (op!=.popc => type=.pred)",
         ".popc gives .u32; .and/.or give .pred"}}},
      {"barrier.sync",
       "9.7.13.1",
       "cta? .cta; sync .sync; aligned? .aligned",
       "a:.u32, a?:.u32",
       "6.0 sm_30",
       {{"cta", "7.8 sm_30"}}},
      {"barrier.arrive",
       "9.7.13.1",
       "cta? .cta; arrive .arrive; aligned? .aligned",
       "a:.u32, a:.u32",
       "6.0 sm_30",
       {{"cta", "7.8 sm_30"}}},
      {"barrier.red",
       "9.7.13.1",
       "cta? .cta; red .red; op .popc .and .or; aligned? .aligned; type .u32 .pred",
       "d:type, a:.u32, a?:.u32, p:.pred",
       "6.0 sm_30",
       {{"cta", "7.8 sm_30"}},
       {{"popc-u32", "(op=.popc => type=.u32) && (op!=.popc => type=.pred)",
         ".popc gives .u32; .and/.or give .pred"}}},
      {"bar.warp.sync", "9.7.13.2", "", "a:.b32", "6.0 sm_30"},
      {"barrier.cluster.arrive",
       "9.7.13.3",
       "sem? .release .relaxed; aligned? .aligned",
       "",
       "7.8 sm_90",
       {{"sem", "8.0 sm_90"}}},
      {"barrier.cluster.wait",
       "9.7.13.3",
       "sem? .acquire; aligned? .aligned",
       "",
       "7.8 sm_90",
       {{"sem", "8.0 sm_90"}}},
      {"fence",
       "9.7.13.4",
       "sem? .sc .acq_rel .acquire .release; restrict? .sync_restrict::shared::cluster "
       ".sync_restrict::shared::cta; scope @scope",
       "",
       "6.0 sm_70",
       {{"scope=.cluster", "7.8 sm_90"}, {"restrict", "8.6 sm_90"}},
       {{"restrict-form",
         "(restrict => scope=.cluster) && (restrict=.sync_restrict::shared::cluster => "
         "sem=.acquire) && "
         "(restrict=.sync_restrict::shared::cta => sem=.release)",
         "uni-directional fences are .acquire.sync_restrict::shared::cluster.cluster or "
         ".release.sync_restrict::shared::cta.cluster"}}},
      {"fence.mbarrier_init", "9.7.13.4", "sem .release; scope .cluster", "", "8.0 sm_90"},
      {"fence.proxy",
       "9.7.13.4",
       "kind .alias .async .tensormap::generic .async::generic; space? .global .shared::cta "
       ".shared::cluster; "
       "sem? .release .acquire; restrict? .sync_restrict::shared::cluster "
       ".sync_restrict::shared::cta; scope? @scope",
       "m?[kind=.tensormap::generic && sem=.acquire], i?[kind=.tensormap::generic && "
       "sem=.acquire]:=128",
       "7.5 sm_70",
       {{"kind=.async,.async::generic", "8.0 sm_90"},
        {"kind=.tensormap::generic", "8.3 sm_90"},
        {"restrict", "8.6 sm_90"}},
       {{"bidirectional-plain", "kind=.alias,.async => !sem && !scope && !restrict",
         "bi-directional proxy fences take no semantics or scope"},
        {"space-async", "space => kind=.async", "a state space qualifies only .async"},
        {"unidirectional", "kind=.tensormap::generic,.async::generic => sem && scope",
         "uni-directional proxy fences need .release or .acquire and a scope"},
        {"restrict-async",
         "(restrict => kind=.async::generic && scope=.cluster) && (kind=.async::generic => "
         "restrict) && "
         "(restrict=.sync_restrict::shared::cluster => sem=.acquire) && "
         "(restrict=.sync_restrict::shared::cta => sem=.release)",
         ".async::generic fences are .acquire.sync_restrict::shared::cluster.cluster or "
         ".release.sync_restrict::shared::cta.cluster"}}},
      {"membar", "9.7.13.4", "level .cta .gl .sys", "", "1.4 sm_20"},
      {"membar.proxy", "9.7.13.4", "kind .alias", "", "7.5 sm_60"},
      {"atom", "9.7.13.5", atom_axes, "x:type, m, x:type, a?[op=.cas]:type, a?hint:.b64",
       "1.1 sm_20", atomic_variants(true), atomic_rules()},
      {"red", "9.7.13.6", red_axes, "m, x:type, a?hint:.b64", "1.2 sm_20", atomic_variants(false),
       red_rules},
      {"red.async",
       "9.7.13.7",
       "mmio? .mmio; sem .relaxed .release; scope? .cluster .gpu .sys; ss? .shared::cluster "
       ".global; "
       "completion? .mbarrier::complete_tx::bytes; op .inc .dec .min .max .and .or .xor .add; type "
       ".u32 .s32 .u64 .s64 .b32",
       "m, a:type, m?",
       "8.1 sm_90",
       {{"mmio || sem=.release || ss=.global || scope=.gpu,.sys", "8.7 sm_100"}},
       {{"release-form",
         "(sem=.release || ss=.global || mmio) => sem=.release && ss=.global && !completion && "
         "op=.add && type!=.b32",
         "the .release form is red.async.release.{gpu,sys}.global.add"},
        {"release-scope", "sem=.release => scope=.gpu,.sys",
         "the .release form takes .gpu or .sys"},
        {"relaxed-form", "sem=.relaxed => scope=.cluster && completion && ss!=.global",
         "the .relaxed form is .cluster on .shared::cluster with .mbarrier::complete_tx::bytes"},
        {"op-types",
         "(op=.inc,.dec => type=.u32) && (op=.min,.max => type=.u32,.s32) && (op=.and,.or,.xor => "
         "type=.b32) && "
         "(op=.add => type=.u32,.s32,.u64,.s64) && (type=.s64 => sem=.release)",
         "no such red.async operation and type"}}},
      {"vote",
       "9.7.13.8",
       "mode .all .any .uni .ballot; type .pred .b32",
       "d:type, p:.pred",
       "1.2 sm_20",
       {},
       {{"ballot-b32", "(mode=.ballot => type=.b32) && (type=.b32 => mode=.ballot)",
         ".ballot gives .b32; the others .pred"}},
       Spec::Manual,
       "6.4 sm_70",
       "vote.sync"},
      {"vote.sync",
       "9.7.13.9",
       "mode .all .any .uni .ballot; type .pred .b32",
       "d:type, p:.pred, a:.b32",
       "6.0 sm_30",
       {},
       {{"ballot-b32", "(mode=.ballot => type=.b32) && (type=.b32 => mode=.ballot)",
         ".ballot gives .b32; the others .pred"}}},
      {"match.sync", "9.7.13.10", "mode .any .all; type .b32 .b64", "t:.b32, a:type, a:.b32",
       "6.0 sm_70"},
      {"activemask", "9.7.13.11", "type .b32", "d:.b32", "6.2 sm_30"},
      {"redux.sync",
       "9.7.13.12",
       "op .add .min .max .and .or .xor; abs? .abs; nan? .NaN; type .u32 .s32 .b32 .f32",
       "d:type, a:type, a:.b32",
       "7.0 sm_80",
       {{"type=.f32 || abs || nan", "8.6 sm_100a sm_110a sm_100f sm_110f"}},
       {{"op-types",
         "(op=.and,.or,.xor => type=.b32) && (op=.add => type=.u32,.s32) && (type=.f32 => "
         "op=.min,.max)",
         "no such redux.sync operation and type"},
        {"abs-nan-f32", "abs || nan => type=.f32", ".abs and .NaN apply to .f32"}}},
      {"griddepcontrol", "9.7.13.13", "action .launch_dependents .wait", "", "7.8 sm_90"},
      {"elect.sync", "9.7.13.14", "", "t:.b32, a:.b32", "8.0 sm_90"},
      {"mbarrier.init",
       "9.7.13.15.9",
       "space? .shared .shared::cta; type .b64",
       "m, a:.u32",
       "7.0 sm_80",
       {{"space=.shared::cta", "7.8 sm_80"}}},
      {"mbarrier.inval",
       "9.7.13.15.10",
       "space? .shared .shared::cta; type .b64",
       "m",
       "7.0 sm_80",
       {{"space=.shared::cta", "7.8 sm_80"}}},
      {"mbarrier.expect_tx",
       "9.7.13.15.11",
       "sem? .relaxed; scope? .cta .cluster; space? .shared .shared::cta .shared::cluster; type "
       ".b64",
       "m, a:.u32",
       "8.0 sm_90",
       {},
       {{"sem-scope", "(sem => scope) && (scope => sem)", ".sem and .scope go together"}}},
      {"mbarrier.complete_tx",
       "9.7.13.15.12",
       "sem? .relaxed; scope? .cta .cluster; space? .shared .shared::cta .shared::cluster; type "
       ".b64",
       "m, a:.u32",
       "8.0 sm_90",
       {},
       {{"sem-scope", "(sem => scope) && (scope => sem)", ".sem and .scope go together"}}},
      mbarrier_arrive("mbarrier.arrive", "9.7.13.15.13"),
      mbarrier_arrive("mbarrier.arrive_drop", "9.7.13.15.14"),
      {"cp.async.mbarrier.arrive",
       "9.7.13.15.15",
       "noinc? .noinc; space? .shared .shared::cta; type .b64",
       "m",
       "7.0 sm_80",
       {{"space=.shared::cta", "7.8 sm_80"}}},
      {"mbarrier.test_wait",
       "9.7.13.15.16",
       "sem? .acquire .relaxed; scope? .cta .cluster; space? .shared .shared::cta; type .b64",
       "d:.pred, m, a:.b64",
       "7.0 sm_80",
       {{"space=.shared::cta", "7.8 sm_80"},
        {"sem=.acquire || scope", "8.0 sm_80"},
        {"scope=.cluster", "8.0 sm_90"},
        {"sem=.relaxed", "8.6 sm_90"}},
       {{"sem-scope", "(sem => scope) && (scope => sem)", ".sem and .scope go together"}}},
      {"mbarrier.test_wait.parity",
       "9.7.13.15.16",
       "sem? .acquire .relaxed; scope? .cta .cluster; space? .shared .shared::cta; type .b64",
       "d:.pred, m, a:.b32",
       "7.1 sm_80",
       {{"space=.shared::cta", "7.8 sm_80"},
        {"sem=.acquire || scope", "8.0 sm_80"},
        {"scope=.cluster", "8.0 sm_90"},
        {"sem=.relaxed", "8.6 sm_90"}},
       {{"sem-scope", "(sem => scope) && (scope => sem)", ".sem and .scope go together"}}},
      {"mbarrier.try_wait",
       "9.7.13.15.16",
       "sem? .acquire .relaxed; scope? .cta .cluster; space? .shared .shared::cta; type .b64",
       "d:.pred, m, a:.b64, a?:.u32",
       "7.8 sm_90",
       {{"sem=.acquire || scope", "8.0 sm_90"}, {"sem=.relaxed", "8.6 sm_90"}},
       {{"sem-scope", "(sem => scope) && (scope => sem)", ".sem and .scope go together"}}},
      {"mbarrier.try_wait.parity",
       "9.7.13.15.16",
       "sem? .acquire .relaxed; scope? .cta .cluster; space? .shared .shared::cta; type .b64",
       "d:.pred, m, a:.b32, a?:.u32",
       "7.8 sm_90",
       {{"sem=.acquire || scope", "8.0 sm_90"}, {"sem=.relaxed", "8.6 sm_90"}},
       {{"sem-scope", "(sem => scope) && (scope => sem)", ".sem and .scope go together"}}},
      {"mbarrier.pending_count", "9.7.13.15.17", "type .b64", "d:.u32, a:.b64", "7.0 sm_80"},
      {"tensormap.cp_fenceproxy", "9.7.13.16",
       "dst .global; src .shared::cta; proxy .tensormap::generic; sem .release; scope @scope; sync "
       ".sync; aligned .aligned",
       "m, m, i", "8.3 sm_90"},
      {"clusterlaunchcontrol.try_cancel",
       "9.7.13.17",
       "async .async; space? .shared::cta; completion .mbarrier::complete_tx::bytes; multicast? "
       ".multicast::cluster::all; type .b128",
       "m, m",
       "8.6 sm_100",
       {{"multicast", "8.6 sm_100a sm_110a sm_120a sm_100f sm_110f sm_120f"}}},
      {"clusterlaunchcontrol.query_cancel",
       "9.7.13.18",
       "query .is_canceled .get_first_ctaid .get_first_ctaid::x .get_first_ctaid::y "
       ".get_first_ctaid::z; vec? .v4; "
       "type .pred .b32; rtype .b128",
       "x:type, a:.b128",
       "8.6 sm_100",
       {},
       {{"query-types",
         "(query=.is_canceled => type=.pred && !vec) && (query=.get_first_ctaid => type=.b32 && "
         "vec) && "
         "(query=.get_first_ctaid::x,.get_first_ctaid::y,.get_first_ctaid::z => type=.b32 && !vec)",
         "no such query form"}}},
  };
}

} // namespace ptxvm::isa::rows
