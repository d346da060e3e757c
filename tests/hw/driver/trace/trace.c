/* The trace library (README.md): every Driver API call is logged, then runs in the real driver.
   Most entry points are assembly thunks (thunks.S from gen_thunks.py, entry.S) that call
   trace_enter and trace_leave here; cuInit, cuDriverGetVersion, cuGetProcAddress(_v2) and
   cuGetExportTable are C functions here that log their arguments too. No cuda.h: it renames
   cuGetProcAddress to cuGetProcAddress_v2. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

typedef int CUresult;

/* thunks.S */
extern const char* const trace_names[];
extern void* const trace_thunks[];
extern const unsigned trace_count;
extern void* trace_real[];
/* entry.S */
void trace_return(void);

/* One log line under construction, kept NUL-terminated; too long a line is cut. */
enum { LINE = 512 };
struct line {
  char s[LINE];
  size_t n;
};

static void put(struct line* l, const char* s) {
  while (*s && l->n < LINE - 1) l->s[l->n++] = *s++;
  l->s[l->n] = 0;
}

static void begin(struct line* l, const char* s) {
  l->n = 0;
  put(l, s);
}

static void put_u(struct line* l, uint64_t v) {
  char d[21];
  int i = 20;
  d[i] = 0;
  do d[--i] = (char)('0' + v % 10);
  while (v /= 10);
  put(l, d + i);
}

static void put_i(struct line* l, int64_t v) {
  if (v < 0) put(l, "-");
  put_u(l, v < 0 ? -(uint64_t)v : (uint64_t)v);
}

static void put_hex(struct line* l, const unsigned char* p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < n && l->n < LINE - 2; i++) {
    l->s[l->n++] = digits[p[i] >> 4];
    l->s[l->n++] = digits[p[i] & 15];
  }
  l->s[l->n] = 0;
}

/* The log: lines gather in log_buf, written out when it is nearly full, before a fork and at
   exit; from exit on (destructors of libraries finalised after this one still call the driver),
   or always with PTXVM_TRACE_SYNC=1, each line is written at once. */
enum { LOG_SIZE = 1 << 20 };
static char log_buf[LOG_SIZE];
static size_t log_used;
static int log_locked;
static int log_fd = -1;
static int log_direct;
static uint64_t log_seq;
static pid_t self_pid;   /* this process */
static pid_t header_pid; /* the process whose header line is written */
static char real_path[256];
static int real_loaded_earlier; /* calls made to it directly are not in the log */
static __thread pid_t self_tid;

static void lock(void) {
  while (__atomic_exchange_n(&log_locked, 1, __ATOMIC_ACQUIRE)) sched_yield();
}

static void unlock(void) {
  __atomic_store_n(&log_locked, 0, __ATOMIC_RELEASE);
}

static void flush_locked(void) {
  const char* p = log_buf;
  while (log_used) {
    ssize_t w = write(log_fd, p, log_used);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    p += w;
    log_used -= (size_t)w;
  }
  log_used = 0;
}

static void append_locked(const struct line* l) {
  if (LOG_SIZE - log_used < LINE + 1) flush_locked();
  memcpy(log_buf + log_used, l->s, l->n);
  log_used += l->n;
  log_buf[log_used++] = '\n';
}

/* Writes "<seq> <pid> <tid> <body>" and returns seq. The first line of a process is preceded by
   "# pid <pid> exe <path> real <path of the real driver>[ loaded-before-trace]". */
static uint64_t log_line(const struct line* body) {
  if (!self_tid) self_tid = (pid_t)syscall(SYS_gettid);
  struct line l;
  lock();
  if (header_pid != self_pid) {
    char exe[256];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    begin(&l, "# pid ");
    put_u(&l, (uint64_t)self_pid);
    put(&l, " exe ");
    put(&l, exe);
    put(&l, " real ");
    put(&l, real_path);
    if (real_loaded_earlier) put(&l, " loaded-before-trace");
    append_locked(&l);
    header_pid = self_pid;
  }
  uint64_t seq = ++log_seq;
  begin(&l, "");
  put_u(&l, seq);
  put(&l, " ");
  put_u(&l, (uint64_t)self_pid);
  put(&l, " ");
  put_u(&l, (uint64_t)self_tid);
  put(&l, " ");
  put(&l, body->s);
  append_locked(&l);
  if (log_direct) flush_locked();
  unlock();
  return seq;
}

__attribute__((destructor)) static void finish(void) {
  lock();
  if (log_fd >= 0) flush_locked();
  log_direct = 1;
  unlock();
}

/* Writes out the log and stops the program. */
static void die(const char* what, const char* detail) {
  const char* parts[] = {"ptxvm trace: ", what, detail ? detail : "", "\n"};
  for (int i = 0; i < 4; i++)
    if (write(2, parts[i], strlen(parts[i])) < 0) break;
  finish();
  abort();
}

static void before_fork(void) {
  lock();
  flush_locked();
}

static void after_fork_child(void) {
  self_pid = getpid();
  self_tid = 0;
  unlock();
}

/* The real driver, opened at the first call. */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int trace_returns = 1;
static CUresult (*real_init)(unsigned); /* null where the real driver lacks the function */
static CUresult (*real_driver_version)(int*);
static CUresult (*real_gpa)(const char*, void**, int, uint64_t);
static CUresult (*real_gpa2)(const char*, void**, int, uint64_t, int*);
static CUresult (*real_export_table)(const void**, const void*);

static void need(void* fn, const char* name) {
  if (!fn) die("the real driver lacks ", name);
}

static void init(void) {
  const char* path = getenv("PTXVM_REAL_LIBCUDA");
  const char* file = getenv("PTXVM_TRACE_FILE");
  const char* returns = getenv("PTXVM_TRACE_RETURNS");
  const char* sync = getenv("PTXVM_TRACE_SYNC");
  trace_returns = !(returns && strcmp(returns, "0") == 0);
  log_direct = sync && strcmp(sync, "1") == 0;
  self_pid = getpid();
  log_fd = file && *file ? open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : 2;
  if (log_fd < 0) die("cannot open PTXVM_TRACE_FILE ", file);
  if (!path || path[0] != '/')
    die("PTXVM_REAL_LIBCUDA must hold the real driver's absolute path", NULL);
  strncpy(real_path, path, sizeof real_path - 1);
  void* earlier = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) die("cannot open the real driver: ", dlerror());
  for (unsigned i = 0; i < trace_count; i++) trace_real[i] = dlsym(lib, trace_names[i]);
  real_init = dlsym(lib, "cuInit");
  real_driver_version = dlsym(lib, "cuDriverGetVersion");
  real_gpa = dlsym(lib, "cuGetProcAddress");
  real_gpa2 = dlsym(lib, "cuGetProcAddress_v2");
  real_export_table = dlsym(lib, "cuGetExportTable");
  pthread_atfork(before_fork, unlock, after_fork_child);
  if (earlier) {
    real_loaded_earlier = 1;
    dlclose(earlier);
  }
}

/* Calls through thunks. Each thread keeps the return addresses that trace_enter replaced, to
   log the result on the way back; deeper nesting than this (callbacks that call the driver)
   goes unhooked. */
enum { DEPTH = 32 };
struct frame {
  void* ret;
  uint64_t seq;
  unsigned index;
};
static __thread struct frame frames[DEPTH];
static __thread unsigned depth;

__attribute__((visibility("hidden"))) void* trace_enter(unsigned index, void** ret) {
  pthread_once(&once, init);
  struct line l;
  begin(&l, trace_names[index]);
  uint64_t seq = log_line(&l);
  void* fn = trace_real[index];
  if (!fn) die("the real driver lacks ", trace_names[index]);
  if (trace_returns && depth < DEPTH) {
    frames[depth++] = (struct frame){*ret, seq, index};
    *ret = (void*)trace_return;
  }
  return fn;
}

/* "<name> -> <result> call=<seq of the call>", to which details are added. */
static void start_return(struct line* l, const char* name, CUresult rc, uint64_t call) {
  begin(l, name);
  put(l, " -> ");
  put_i(l, rc);
  put(l, " call=");
  put_u(l, call);
}

__attribute__((visibility("hidden"))) void* trace_leave(CUresult rc) {
  struct frame f = frames[--depth];
  if (rc) {
    struct line l;
    start_return(&l, trace_names[f.index], rc, f.seq);
    log_line(&l);
  }
  return f.ret;
}

/* The functions logged with their arguments. */
static void start_call(struct line* l, const char* name) {
  pthread_once(&once, init);
  begin(l, name);
}

EXPORT CUresult cuInit(unsigned flags) {
  struct line l;
  start_call(&l, __func__);
  put(&l, " flags=");
  put_u(&l, flags);
  uint64_t call = log_line(&l);
  need((void*)real_init, __func__);
  CUresult rc = real_init(flags);
  start_return(&l, __func__, rc, call);
  log_line(&l);
  return rc;
}

EXPORT CUresult cuDriverGetVersion(int* version) {
  struct line l;
  start_call(&l, __func__);
  uint64_t call = log_line(&l);
  need((void*)real_driver_version, __func__);
  CUresult rc = real_driver_version(version);
  start_return(&l, __func__, rc, call);
  if (rc == 0 && version) {
    put(&l, " version=");
    put_i(&l, *version);
  }
  log_line(&l);
  return rc;
}

/* The index of the exported symbol at fn (a real function or, where this library interposes
   on the real driver's own references, one of this library's), preferring a name that starts with
   the one asked for (aliases), or -1. */
static int symbol_at(void* fn, const char* asked) {
  int found = -1;
  size_t n = strlen(asked);
  for (unsigned i = 0; i < trace_count; i++)
    if (trace_real[i] == fn || trace_thunks[i] == fn) {
      if (strncmp(trace_names[i], asked, n) == 0) return (int)i;
      if (found < 0) found = (int)i;
    }
  return found;
}

/* Logs the request and the answer, and hands out this library's entry point for the function
   the real driver returned, so that calls through the pointer are logged too. */
static CUresult get_proc_address(const char* name, const char* symbol, void** fn, int version,
                                 uint64_t flags, int* status, int v2) {
  struct line l;
  start_call(&l, name);
  put(&l, " symbol=");
  put(&l, symbol ? symbol : "(null)");
  put(&l, " version=");
  put_i(&l, version);
  put(&l, " flags=");
  put_u(&l, flags);
  uint64_t call = log_line(&l);
  need(v2 ? (void*)real_gpa2 : (void*)real_gpa, name);
  CUresult rc =
      v2 ? real_gpa2(symbol, fn, version, flags, status) : real_gpa(symbol, fn, version, flags);
  start_return(&l, name, rc, call);
  if (rc == 0 && fn) {
    put(&l, " fn=");
    int i = *fn ? symbol_at(*fn, symbol ? symbol : "") : -1;
    if (i >= 0) {
      put(&l, trace_names[i]);
      *fn = trace_thunks[i];
    } else {
      put(&l, *fn ? "unexported" : "null");
    }
  }
  if (rc == 0 && v2 && status) {
    put(&l, " status=");
    put_i(&l, *status);
  }
  log_line(&l);
  return rc;
}

EXPORT CUresult cuGetProcAddress(const char* symbol, void** fn, int version, uint64_t flags) {
  return get_proc_address(__func__, symbol, fn, version, flags, NULL, 0);
}

EXPORT CUresult cuGetProcAddress_v2(const char* symbol, void** fn, int version, uint64_t flags,
                                    int* status) {
  return get_proc_address(__func__, symbol, fn, version, flags, status, 1);
}

/* Logs the table's UUID and, for a table returned, its slot 0: the table's size in bytes in most
   tables, an address in the context-local-storage one. The slots are not wrapped. */
EXPORT CUresult cuGetExportTable(const void** table, const void* uuid) {
  struct line l;
  start_call(&l, __func__);
  if (uuid) {
    put(&l, " uuid=");
    put_hex(&l, uuid, 16);
  }
  uint64_t call = log_line(&l);
  need((void*)real_export_table, __func__);
  CUresult rc = real_export_table(table, uuid);
  start_return(&l, __func__, rc, call);
  if (rc == 0 && table && *table) {
    uint64_t slot0 = *(const uint64_t*)*table;
    if (slot0 < 65536) {
      put(&l, " size=");
      put_u(&l, slot0);
    } else {
      put(&l, " slot0=address");
    }
  }
  log_line(&l);
  return rc;
}
