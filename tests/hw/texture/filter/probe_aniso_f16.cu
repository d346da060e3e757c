// How the H200 sums an anisotropic footprint of f16 texels at other magnitudes, and of sRGB texels
// (issue 21; README.md, "f16 footprints at every magnitude: part 33"): part 19's f16 texture and
// lookups (probe_four.h) with the texels' exponent field drawn from `e` to `e + 5` instead of 11 to
// 16, for e in {1, 4, 8, 14, 17, 20, 25} (magnitudes from 2^-14 to 65,504), one texture after
// another from one xorshift32 stream (part 33); then part 19's RGBA8 texture read through sRGB
// (part 34).
//
// Writes OUT in probe_aniso.cu's format: uint32 records; per record: uint32 part (33, 34), float max
// anisotropy, 4 floats head, uint32 n, n f32 results; per texture the records of
// four_channel_records (a texel record, then seven lookup records).
//   nvcc -O2 -std=c++17 -arch=sm_90 -o probe_aniso_f16 probe_aniso_f16.cu
//   ./probe_aniso_f16 aniso_f16.bin
#include "probe_four.h"

int main(int argc, char** argv) {
  if (argc < 2) return std::fprintf(stderr, "usage: probe_aniso_f16 OUT\n"), 2;
  out_file = std::fopen(argv[1], "wb");
  std::fwrite(&records, 4, 1, out_file);
  uint32_t expected = 0;
  for (uint32_t e : {1u, 4u, 8u, 14u, 17u, 20u, 25u}) expected += four_channel_records(33, 1, e);
  expected += four_channel_records(34, 2);
  std::fseek(out_file, 0, SEEK_SET);
  std::fwrite(&records, 4, 1, out_file);
  std::fclose(out_file);
  const cudaError_t err = cudaGetLastError();
  std::printf("%u records (expected %u): %s\n", records, expected, cudaGetErrorString(err));
  return records == expected && err == cudaSuccess ? 0 : 1;
}
