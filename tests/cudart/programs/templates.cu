// C++ on the device: kernel templates instantiated for several types, a recursive device
// function, a functor, and a lambda passed to a kernel template.
#include <vector>
#include "check.h"

template <typename T>
__global__ void axpy(T a, const T* x, T* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__device__ int fib(int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }

struct Square {
  __device__ long long operator()(int v) const { return (long long)v * v; }
};

template <typename F>
__global__ void apply(F f, long long* out) { out[threadIdx.x] = f(threadIdx.x) + fib(threadIdx.x % 12); }

template <typename T>
void check_axpy() {
  const int n = 300;
  std::vector<T> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = T(i), y[i] = T(2 * i);
  T *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(T)));
  CHECK(cudaMalloc(&dy, n * sizeof(T)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  axpy<T><<<(n + 127) / 128, 128>>>(T(3), dx, dy, n);
  CHECK(cudaMemcpy(y.data(), dy, n * sizeof(T), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT(y[i] == T(3 * i + 2 * i));
}

int main() {
  check_axpy<int>();
  check_axpy<double>();
  check_axpy<unsigned char>();
  long long* out;
  CHECK(cudaMalloc(&out, 64 * sizeof(long long)));
  apply<<<1, 64>>>(Square{}, out);
  long long got[64];
  CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
  const int fibs[12] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89};
  for (int i = 0; i < 64; ++i) EXPECT(got[i] == (long long)i * i + fibs[i % 12]);
  return pass();
}
