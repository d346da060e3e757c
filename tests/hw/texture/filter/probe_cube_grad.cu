// tex.grad on cube maps (issue 21): how the H100 turns a cube lookup's direction-space gradients
// into a level of detail and a footprint on the face. tests/hw/texture's "grad cube" and "grad
// acube" cases (max anisotropy 16) differ in about a third of their words.
//
// Textures: cube maps of 64 x 64 faces, f32, one channel, normalized coordinates (as cube maps
// are), clamp, linear filtering, not seamless.
//   level texture (part 21): 7 levels, each texel its level's number; linear mip filtering with
//     the trilinear optimization off (cudaTextureDesc::disableTrilinearOptimization), so a
//     lookup returns l0 + f, the level of detail cut to 1/256 (clamped to 0 .. 6).
//   one-texel texture (part 22): no levels, all 0 but texel (32, 32) of face 0 (+x) and of face 4
//     (+z), which hold 1; a lookup returns the weight its footprint gives that texel.
//
// Part 21, the level of detail. A data record first (head: 0, 0, 0, 0; n = 12 per lookup: the
// direction x, y, z, 0, dPdx x, y, z, 0, dPdy x, y, z, 0), then one result record per max
// anisotropy A in {1, 2, 4, 8, 16} (head: A, 1, 0, 0; n = lookups). Lookups: per face F
// (0..5: +x, -x, +y, -y, +z, -z; major axis k = F/2, sign s = +1 for even F), per (a, b) in
// {(0, 0), (0.5, 0), (0, 0.5), (-0.75, 0.25), (0.3, -0.6), (0.875, 0.875)} and scale m in {1, 2,
// 0.75}, the direction m (s e_k + a e_(k+1) + b e_(k+2)) (axes mod 3); per direction 40 gradient
// pairs, where one texel of the face is 2/64 = 1/32 direction units at m = 1 and t(u) = 2^u / 32:
//   - dPdx = t e_i, dPdy = 0, for i = 0, 1, 2 (u random in [0, 4));
//   - dPdx = t1 e_i, dPdy = t2 e_j, for the six ordered pairs i != j (u1, u2 random in [0, 4));
//   - 31 pairs of random directions (three Gaussian components, normalized) of lengths t(u),
//     u random in [-1, 5).
// Everything from xorshift32 with a fixed seed, each value rounded to float once; the data record
// holds what the GPU was given.
//
// Part 22, footprints on the face. The one-texel texture, max anisotropy A in {16, 4}. A lookup
// centre c(p) = C + (p / 64) u (p in -P..P), C texel (32, 32)'s centre on face +x (the direction
// (1, -(32.5/32 - 1), -(32.5/32 - 1)) = (1, -1/64, -1/64): face +x has s = -z, t = -y) or on face
// +z (direction (32.5/32 - 1, -(32.5/32 - 1), 1)), u a unit step along the major axis in direction
// space (1/32 units = one texel at m = 1), the direction scaled by m in {1, 2}. The gradients:
// dPdx = L u / 32, dPdy = v / 32, v the unit step perpendicular to u in the face (one texel),
// for L in {1, 1.5, 2.5, 3, 4, 6, 8, 16}, with u along the face's s axis, its t axis, the
// diagonal (s + t)/sqrt 2, and (2 s + t)/sqrt 5; and a fifth kind: dPdx = L u_s / 32 + L r / 32,
// r the unit radial direction (the major axis): the radial part of a gradient.
// head: L, kind (0: s, 1: t, 2: diagonal, 3: (2, 1), 4: s plus radial), face (0 or 4) + 8 (m -
// 1) + 16 (A == 4), P; n = 2P + 1, P = 64 (L / 2 + 2.5) rounded up. Each direction and gradient
// component computed in double and rounded to float once (written as the data of part 22's
// first record: head 0, 0, 0, -1, n = 0 — the inputs follow from the head).
//
// Writes OUT in probe_aniso.cu's format: uint32 records; per record: uint32 part, float max
// anisotropy, 4 floats head, uint32 n, n f32 results.
//   nvcc -O2 -std=c++17 -arch=sm_90 -o probe_cube_grad probe_cube_grad.cu
//   ./probe_cube_grad cube_grad.bin
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void sample(cudaTextureObject_t t, const float4* at, const float4* gx, const float4* gy, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = texCubemapGrad<float>(t, at[i].x, at[i].y, at[i].z, gx[i], gy[i]);
}

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

constexpr int kSize = 64;

// A cube map of `levels` levels (0: a plain cube array), texel (level, face, x, y) = fill(...).
template <typename Fill>
cudaTextureObject_t cube(int levels, int anisotropy, Fill fill) {
  const cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float>();
  auto upload = [&](cudaArray_t a, int l) {
    const int n = kSize >> l;
    std::vector<float> v(size_t(n) * n * 6);
    for (int f = 0; f < 6; ++f)
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) v[(size_t(f) * n + y) * n + x] = fill(l, f, x, y);
    cudaMemcpy3DParms p{};
    p.srcPtr = make_cudaPitchedPtr(v.data(), n * 4, n, n);
    p.dstArray = a;
    p.extent = make_cudaExtent(n, n, 6);
    p.kind = cudaMemcpyHostToDevice;
    check(cudaMemcpy3D(&p), "cudaMemcpy3D");
  };
  cudaResourceDesc res{};
  if (levels == 0) {
    cudaArray_t a;
    check(cudaMalloc3DArray(&a, &fmt, make_cudaExtent(kSize, kSize, 6), cudaArrayCubemap), "cudaMalloc3DArray");
    upload(a, 0);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
  } else {
    cudaMipmappedArray_t m;
    check(cudaMallocMipmappedArray(&m, &fmt, make_cudaExtent(kSize, kSize, 6), levels, cudaArrayCubemap),
          "cudaMallocMipmappedArray");
    for (int l = 0; l < levels; ++l) {
      cudaArray_t a;
      check(cudaGetMipmappedArrayLevel(&a, m, l), "cudaGetMipmappedArrayLevel");
      upload(a, l);
    }
    res.resType = cudaResourceTypeMipmappedArray;
    res.res.mipmap.mipmap = m;
  }
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.mipmapFilterMode = cudaFilterModeLinear;
  td.normalizedCoords = 1;
  td.maxAnisotropy = anisotropy;
  td.maxMipmapLevelClamp = float(levels > 0 ? levels - 1 : 0);
  td.disableTrilinearOptimization = 1;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t = 0;
  check(cudaCreateTextureObject(&t, &res, &td, nullptr), "cudaCreateTextureObject");
  return t;
}

FILE* out_file;
uint32_t records = 0;

void write_record(uint32_t part, float anisotropy, const float head[4], const std::vector<float>& v) {
  std::fwrite(&part, 4, 1, out_file);
  std::fwrite(&anisotropy, 4, 1, out_file);
  std::fwrite(head, 4, 4, out_file);
  const uint32_t count = uint32_t(v.size());
  std::fwrite(&count, 4, 1, out_file);
  std::fwrite(v.data(), 4, v.size(), out_file);
  ++records;
}

std::vector<float> run(cudaTextureObject_t t, const std::vector<float4>& at, const std::vector<float4>& gx,
                       const std::vector<float4>& gy) {
  const int n = int(at.size());
  float4 *da, *dx, *dy;
  float* dout;
  check(cudaMalloc(&da, n * sizeof(float4)), "cudaMalloc");
  check(cudaMalloc(&dx, n * sizeof(float4)), "cudaMalloc");
  check(cudaMalloc(&dy, n * sizeof(float4)), "cudaMalloc");
  check(cudaMalloc(&dout, n * 4), "cudaMalloc");
  cudaMemcpy(da, at.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
  cudaMemcpy(dx, gx.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, gy.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
  sample<<<(n + 127) / 128, 128>>>(t, da, dx, dy, dout, n);
  check(cudaGetLastError(), "launch");
  std::vector<float> v(n);
  check(cudaMemcpy(v.data(), dout, n * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudaFree(da), cudaFree(dx), cudaFree(dy), cudaFree(dout);
  return v;
}

uint32_t rng = 0x9E3779B9u;
double uniform() {  // [0, 1)
  rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
  return double(rng >> 8) / double(1 << 24);
}
double gaussian() { return std::sqrt(-2 * std::log(1 - uniform())) * std::cos(6.283185307179586 * uniform()); }

float4 f4(double x, double y, double z) { return make_float4(float(x), float(y), float(z), 0); }

void level_of_detail() {
  std::vector<float4> at, gx, gy;
  const double ab[6][2] = {{0, 0}, {0.5, 0}, {0, 0.5}, {-0.75, 0.25}, {0.3, -0.6}, {0.875, 0.875}};
  auto t = [](double u) { return std::exp2(u) / 32; };
  for (int face = 0; face < 6; ++face)
    for (const auto& p : ab)
      for (double m : {1.0, 2.0, 0.75}) {
        const int k = face / 2;
        double d[3];
        d[k] = face % 2 ? -m : m, d[(k + 1) % 3] = m * p[0], d[(k + 2) % 3] = m * p[1];
        auto add = [&](const double x[3], const double y[3]) {
          at.push_back(f4(d[0], d[1], d[2]));
          gx.push_back(f4(x[0], x[1], x[2]));
          gy.push_back(f4(y[0], y[1], y[2]));
        };
        for (int i = 0; i < 3; ++i) {
          double x[3] = {0, 0, 0}, y[3] = {0, 0, 0};
          x[i] = t(4 * uniform());
          add(x, y);
        }
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            if (i != j) {
              double x[3] = {0, 0, 0}, y[3] = {0, 0, 0};
              x[i] = t(4 * uniform()), y[j] = t(4 * uniform());
              add(x, y);
            }
        for (int r = 0; r < 31; ++r) {
          double x[3], y[3];
          for (double* v : {x, y}) {
            double g[3] = {gaussian(), gaussian(), gaussian()};
            const double n = std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
            const double len = t(6 * uniform() - 1);
            for (int c = 0; c < 3; ++c) v[c] = g[c] / n * len;
          }
          add(x, y);
        }
      }
  std::vector<float> data;
  for (size_t i = 0; i < at.size(); ++i)
    for (const float4* v : {&at[i], &gx[i], &gy[i]}) data.insert(data.end(), {v->x, v->y, v->z, v->w});
  const float head0[4] = {0, 0, 0, 0};
  write_record(21, 0, head0, data);
  for (int a : {1, 2, 4, 8, 16}) {
    cudaTextureObject_t tex = cube(7, a, [](int l, int, int, int) { return float(l); });
    const float head[4] = {float(a), 1, 0, 0};
    write_record(21, float(a), head, run(tex, at, gx, gy));
    cudaDestroyTextureObject(tex);
  }
}

void footprints() {
  const float head0[4] = {0, 0, 0, -1};
  write_record(22, 0, head0, {});
  for (int a : {16, 4}) {
    cudaTextureObject_t tex = cube(0, a, [](int, int f, int x, int y) {
      return (f == 0 || f == 4) && x == 32 && y == 32 ? 1.0f : 0.0f;
    });
    for (int face : {0, 4})
      for (double m : {1.0, 2.0})
        for (int kind = 0; kind < 5; ++kind)
          for (double L : {1.0, 1.5, 2.5, 3.0, 4.0, 6.0, 8.0, 16.0}) {
            // Face +x: s = -z, t = -y, radial +x. Face +z: s = +x, t = -y, radial +z.
            const double off = 32.5 / 32 - 1;
            double C[3], S[3], T[3], R[3];
            if (face == 0) {
              C[0] = 1, C[1] = -off, C[2] = -off;
              S[0] = 0, S[1] = 0, S[2] = -1;
              T[0] = 0, T[1] = -1, T[2] = 0;
              R[0] = 1, R[1] = 0, R[2] = 0;
            } else {
              C[0] = off, C[1] = -off, C[2] = 1;
              S[0] = 1, S[1] = 0, S[2] = 0;
              T[0] = 0, T[1] = -1, T[2] = 0;
              R[0] = 0, R[1] = 0, R[2] = 1;
            }
            const double angle[4][2] = {{1, 0}, {0, 1}, {std::sqrt(0.5), std::sqrt(0.5)}, {2 / std::sqrt(5.0), 1 / std::sqrt(5.0)}};
            const double* w = angle[kind == 4 ? 0 : kind];
            double u[3], v[3];
            for (int c = 0; c < 3; ++c) u[c] = w[0] * S[c] + w[1] * T[c], v[c] = -w[1] * S[c] + w[0] * T[c];
            const int P = int(std::ceil(64 * (L / 2 + 2.5)));
            std::vector<float4> at, gx, gy;
            for (int p = -P; p <= P; ++p) {
              at.push_back(f4(m * (C[0] + p / 64.0 * u[0] / 32), m * (C[1] + p / 64.0 * u[1] / 32),
                              m * (C[2] + p / 64.0 * u[2] / 32)));
              double x[3];
              for (int c = 0; c < 3; ++c) x[c] = L * u[c] / 32 + (kind == 4 ? L * R[c] / 32 : 0);
              gx.push_back(f4(x[0], x[1], x[2]));
              gy.push_back(f4(v[0] / 32, v[1] / 32, v[2] / 32));
            }
            const float head[4] = {float(L), float(kind), float(face + 8 * (m - 1) + (a == 4 ? 16 : 0)), float(P)};
            write_record(22, float(a), head, run(tex, at, gx, gy));
          }
    cudaDestroyTextureObject(tex);
  }
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT\n", argv[0]);
    return 2;
  }
  out_file = std::fopen(argv[1], "wb");
  if (!out_file) return 1;
  std::fwrite(&records, 4, 1, out_file);
  level_of_detail();
  footprints();
  std::fseek(out_file, 0, SEEK_SET);
  std::fwrite(&records, 4, 1, out_file);
  std::fclose(out_file);
  std::printf("%u records\n", records);
  return 0;
}
