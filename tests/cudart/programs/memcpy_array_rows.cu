// The deprecated 1D copies to, from and between CUDA arrays (simpleTexture,
// simplePitchLinearTexture, convolutionTexture): `count` bytes run along a row from
// (wOffset bytes, hOffset) and go on at the start of the next row; a count past the array's end is
// cudaErrorInvalidValue.
#include <vector>

#include "check.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // these are deprecated, still exported

int main() {
  const int w = 16, h = 8;  // floats
  const size_t row = w * sizeof(float);
  std::vector<float> in(w * h), out(w * h), back(w * h);
  for (int i = 0; i < w * h; ++i) in[i] = float(i);
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaArray_t a, b;
  CHECK(cudaMallocArray(&a, &f, w, h));
  CHECK(cudaMallocArray(&b, &f, w, h));

  // the whole array in one count, and back
  CHECK(cudaMemcpyToArray(a, 0, 0, in.data(), sizeof(float) * w * h, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyFromArray(out.data(), a, 0, 0, sizeof(float) * w * h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < w * h; ++i) EXPECT(out[i] == in[i]);
  CHECK(cudaMemcpy2DFromArray(back.data(), row, a, 0, 0, row, h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < w * h; ++i) EXPECT(back[i] == in[i]);

  // 2.5 rows from (3 floats, row 2): through the end of row 2, row 3, and on into row 4
  const int start = 2 * w + 3, n = 2 * w + w / 2;
  std::vector<float> minus(n);
  for (int i = 0; i < n; ++i) minus[i] = -float(i + 1);
  CHECK(cudaMemcpyToArray(a, 3 * sizeof(float), 2, minus.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy2DFromArray(back.data(), row, a, 0, 0, row, h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < w * h; ++i) EXPECT(back[i] == (i >= start && i < start + n ? minus[i - start] : in[i]));
  std::vector<float> part(n);
  CHECK(cudaMemcpyFromArray(part.data(), a, 3 * sizeof(float), 2, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT(part[i] == minus[i]);

  // the stream-ordered forms, through device memory
  float* d;
  CHECK(cudaMalloc(&d, sizeof(float) * w * h));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaMemcpyFromArrayAsync(d, a, 0, 0, sizeof(float) * w * h, cudaMemcpyDeviceToDevice, s));
  CHECK(cudaMemcpyToArrayAsync(b, 0, 0, d, sizeof(float) * w * h, cudaMemcpyDeviceToDevice, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy2DFromArray(out.data(), row, b, 0, 0, row, h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < w * h; ++i) EXPECT(out[i] == back[i]);

  // array to array: rows 0..1 of `a` to `b` from (8 floats, row 5), wrapping into rows 6 and 7
  CHECK(cudaMemcpyArrayToArray(b, 8 * sizeof(float), 5, a, 0, 0, 2 * row, cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpy2DFromArray(out.data(), row, b, 0, 0, row, h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < w * h; ++i) {
    const int from = i - (5 * w + 8);
    EXPECT(out[i] == (from >= 0 && from < 2 * w ? back[from] : back[i]));
  }

  // past the end of the array, from its start or from an offset
  EXPECT(cudaMemcpyToArray(a, 0, 0, in.data(), sizeof(float) * w * h + 4, cudaMemcpyHostToDevice) ==
         cudaErrorInvalidValue);
  EXPECT(cudaMemcpyToArray(a, sizeof(float), h - 1, in.data(), row, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
  EXPECT(cudaMemcpyFromArray(out.data(), a, 0, 1, sizeof(float) * w * h, cudaMemcpyDeviceToHost) ==
         cudaErrorInvalidValue);
  EXPECT(cudaGetLastError() == cudaErrorInvalidValue);

  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d));
  CHECK(cudaFreeArray(a));
  CHECK(cudaFreeArray(b));
  return pass();
}
