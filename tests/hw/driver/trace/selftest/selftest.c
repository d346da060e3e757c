/* Calls the fake driver (fake_libcuda.c) through the trace library and checks that every
   argument and result passes unchanged: register and stack arguments, a variadic call, results in
   rax, rdx and xmm0, pointers from cuGetProcAddress, export tables, callbacks that call the
   driver (deeper than the library hooks returns), threads, fork and a call made after the
   library's destructor ran. check.py then checks the log. trace_selftest.sh runs both.

    selftest [LIBRARY]   (default libcuda.so.1) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fake.h"

typedef int (*init_t)(unsigned);
typedef int (*version_t)(int*);
typedef int (*launch_t)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                        void*, void**, void**);
typedef int (*mixed_t)(double, int, double, int, double, int, double, int, double, int, double, int,
                       double, int, double, int, double, double, double*);
typedef int (*variadic_t)(double*, int, ...);
typedef struct fake_pair (*pair_t)(int64_t);
typedef struct fake_mixed (*mixed_result_t)(double);
typedef int (*host_func_t)(void*, void (*)(void*), void*);
typedef int (*gpa_t)(const char*, void**, int, uint64_t);
typedef int (*gpa2_t)(const char*, void**, int, uint64_t, int*);
typedef int (*export_table_t)(const void**, const unsigned char*);

static void* lib;
static init_t cu_init;
static version_t cu_version;
static launch_t cu_launch;
static host_func_t cu_host_func;
static int failures;

static void check(int ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "FAIL: %s\n", what);
    __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
  }
}

static void* sym(const char* name) {
  void* p = dlsym(lib, name);
  if (!p) {
    fprintf(stderr, "no %s: %s\n", name, dlerror());
    exit(2);
  }
  return p;
}

/* A launch through fn whose arguments all differ; checks the hash the fake computed. */
static int launch(launch_t fn, unsigned gx, unsigned salt) {
  uint64_t out = 0;
  void* params[] = {&out};
  void *f = (void*)(uintptr_t)(0x1000 + salt), *stream = (void*)(uintptr_t)(0x2000 + salt);
  void* extra = (void*)(uintptr_t)(0x3000 + salt);
  int rc = fn(f, gx, 3 + salt, 5, 7, 11 + salt, 13, 17 + salt, stream, params, extra);
  check(out == fake_launch_hash(f, gx, 3 + salt, 5, 7, 11 + salt, 13, 17 + salt, stream, params,
                                extra),
        "cuLaunchKernel's arguments");
  return rc;
}

static void nested(void* data) {
  (void)data;
  check(cu_init(1) == 1, "cuInit(1) in a callback");
  check(launch(cu_launch, 0, 9) == 1, "failing cuLaunchKernel in a callback");
}

/* Calls cuLaunchHostFunc again from its callback until 40 deep; each level returns its depth. */
static void recurse(void* data) {
  intptr_t level = (intptr_t)data;
  if (level < 40)
    check(cu_host_func((void*)(level + 1), recurse, (void*)(level + 1)) == level + 1,
          "nested callback");
}

static void* thread_main(void* arg) {
  unsigned salt = (unsigned)(uintptr_t)arg;
  for (unsigned k = 0; k < 10000; k++)
    check(launch(cu_launch, k % 100 == 99 ? 0 : 1 + k, salt * 100000 + k) == (k % 100 == 99),
          "cuLaunchKernel in a thread");
  return NULL;
}

/* The fake driver calls this as it is finalised, after the trace library. */
static void at_teardown(void) {
  int v = 0;
  if (cu_version(&v) != 0 || v != FAKE_DRIVER_VERSION) _exit(3);
}

int main(int argc, char** argv) {
  lib = dlopen(argc > 1 ? argv[1] : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  cu_init = (init_t)sym("cuInit");
  cu_version = (version_t)sym("cuDriverGetVersion");
  cu_launch = (launch_t)sym("cuLaunchKernel");
  cu_host_func = (host_func_t)sym("cuLaunchHostFunc");
  gpa2_t gpa2 = (gpa2_t)sym("cuGetProcAddress_v2");
  export_table_t export_table = (export_table_t)sym("cuGetExportTable");

  check(cu_init(0) == 0, "cuInit(0)");
  check(cu_init(1) == 1, "cuInit(1)");
  int v = 0;
  check(cu_version(&v) == 0 && v == FAKE_DRIVER_VERSION, "cuDriverGetVersion");

  check(launch(cu_launch, 1, 0) == 0, "cuLaunchKernel");
  check(launch(cu_launch, 0, 1) == 1, "failing cuLaunchKernel");

  const double d[10] = {0.5, 1.25, -2, 3.75, 1e10, -1e-3, 7, 8.5, 9.25, -10};
  const int in[8] = {1, -2, 3, -4, 5, -6, 7, -8};
  double out = 0;
  check(((mixed_t)sym("cuCtxSetLimit"))(d[0], in[0], d[1], in[1], d[2], in[2], d[3], in[3], d[4],
                                        in[4], d[5], in[5], d[6], in[6], d[7], in[7], d[8], d[9],
                                        &out) == 0 &&
            out == fake_mixed_sum(d, in),
        "mixed register and stack arguments");
  check(((variadic_t)sym("cuProfilerStart"))(&out, 3, 1.5, 2.5, 4.0) == 0 && out == 8.0,
        "variadic call");
  check(((int (*)(int, ...))sym("cuProfilerStop"))(0, 1.0, 2.0, 3.0) == 3, "al of a variadic call");
  struct fake_pair pair = ((pair_t)sym("cuCtxGetLimit"))(7);
  check(pair.rc == 0 && pair.value == 21, "result in rax:rdx");
  struct fake_mixed mixed = ((mixed_result_t)sym("cuCtxGetFlags"))(2.5);
  check(mixed.rc == 0 && mixed.value == 7.5, "result in rax:xmm0");

  void* fn = NULL;
  int status = -5;
  check(gpa2("cuLaunchKernel", &fn, 12000, 0, &status) == 0 && status == 0, "cuGetProcAddress_v2");
  check(fn == (void*)cu_launch, "cuGetProcAddress_v2 gives the traced entry point");
  check(launch((launch_t)fn, 2, 2) == 0, "cuLaunchKernel through cuGetProcAddress_v2");
  check(gpa2("cuSecret", &fn, 12000, 2, &status) == 0 && fn && ((int (*)(int))fn)(41) == 42,
        "an unexported function");
  check(gpa2("cuNothing", &fn, 12000, 0, &status) == 0 && !fn && status == 1, "an unknown name");
  check(gpa2("cuInit", &fn, 14000, 0, &status) == 1, "a version above the driver's");
  check(((gpa_t)sym("cuGetProcAddress"))("cuGetProcAddress", &fn, 13000, 0) == 0 &&
            fn == (void*)gpa2,
        "cuGetProcAddress gives the traced cuGetProcAddress_v2");
  void* init_fn = NULL;
  check(((gpa2_t)fn)("cuInit", &init_fn, 13000, 0, NULL) == 0 && init_fn == (void*)cu_init &&
            ((init_t)init_fn)(0) == 0,
        "cuInit through the returned cuGetProcAddress_v2");

  static const unsigned char cudart[16] = {0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a,
                                           0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9};
  static const unsigned char cls[16] = {0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11,
                                        0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93};
  static const unsigned char unknown[16] = {0};
  const void* table = NULL;
  check(export_table(&table, cudart) == 0 && ((const uint64_t*)table)[0] == 104 &&
            ((int (*)(void))((void* const*)table)[1])() == 42,
        "a sized export table");
  check(export_table(&table, cls) == 0 && ((void* const*)table)[3] == NULL,
        "the context-local-storage table");
  check(export_table(&table, unknown) == 1 && table == NULL, "an unknown table");

  check(cu_host_func((void*)700, nested, NULL) == 700, "callback calling the driver");
  check(cu_host_func((void*)1, recurse, (void*)1) == 1, "callbacks 40 deep");

  pthread_t threads[4];
  for (uintptr_t t = 0; t < 4; t++) pthread_create(&threads[t], NULL, thread_main, (void*)(t + 1));
  for (int t = 0; t < 4; t++) pthread_join(threads[t], NULL);

  pid_t child = fork();
  if (child == 0) {
    int ok = cu_init(0) == 0 && launch(cu_launch, 1, 77) == 0 && !failures;
    exit(ok ? 0 : 1);
  }
  int child_status = 0;
  check(waitpid(child, &child_status, 0) == child && WIFEXITED(child_status) &&
            WEXITSTATUS(child_status) == 0,
        "calls in a forked child");

  ((int (*)(void (*)(void)))sym("cuStreamAddCallback"))(at_teardown);
  if (failures) fprintf(stderr, "%d checks failed\n", failures);
  return failures ? 1 : 0;
}
