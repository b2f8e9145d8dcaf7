/*
 * A worker's CPU affinity (nginx's worker_cpu_affinity, Kong's nginx_main_worker_cpu_affinity),
 * which node cannot set. With two workers on two cores, each bound to its own core, the
 * scheduler never queues both on one core while the other serves wrk and the upstream: the
 * 99th percentile of a keep-alive run falls by about a quarter (docs/benchmarks.md).
 *
 * allowed() -> the CPU ids this process may run on (sched_getaffinity), or -errno.
 * bind(cpus) -> 0, or -errno: every thread of the process is bound to `cpus`, the calling
 *   thread first, so threads it starts later inherit the mask (node's platform threads exist
 *   already and are bound one by one from /proc/self/task). On an error the process is put back
 *   on the CPUs it had, every thread: never left bound in part.
 * Built by src/native/build-native-addon.ts with the C compiler and node's own headers.
 */
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <node_api.h>
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static napi_value int_value(napi_env env, int value) {
  napi_value out;
  napi_create_int32(env, value, &out);
  return out;
}

/* Every thread of the process on `set`, the calling one first; 0 or the first errno. */
static int set_all(const cpu_set_t *set) {
  if (sched_setaffinity(0, sizeof *set, set) != 0) return errno;
  DIR *tasks = opendir("/proc/self/task");
  if (tasks == NULL) return errno;
  pid_t self = (pid_t)syscall(SYS_gettid);
  int failed = 0;
  struct dirent *entry;
  while ((entry = readdir(tasks)) != NULL) {
    if (entry->d_name[0] == '.') continue;
    pid_t tid = (pid_t)atoi(entry->d_name);
    if (tid <= 0 || tid == self) continue;
    /* A thread that has just ended is no failure. */
    if (sched_setaffinity(tid, sizeof *set, set) != 0 && errno != ESRCH && failed == 0) failed = errno;
  }
  closedir(tasks);
  return failed;
}

static napi_value Allowed(napi_env env, napi_callback_info info) {
  (void)info;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return int_value(env, -errno);
  napi_value list;
  napi_create_array(env, &list);
  uint32_t n = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
    if (CPU_ISSET(cpu, &set)) napi_set_element(env, list, n++, int_value(env, cpu));
  }
  return list;
}

static napi_value Bind(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  bool is_array = false;
  uint32_t length = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 1 ||
      napi_is_array(env, argv[0], &is_array) != napi_ok || !is_array ||
      napi_get_array_length(env, argv[0], &length) != napi_ok || length == 0) {
    return int_value(env, -EINVAL);
  }
  cpu_set_t set, before;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof before, &before) != 0) return int_value(env, -errno);
  for (uint32_t i = 0; i < length; i++) {
    napi_value element;
    int32_t cpu = -1;
    if (napi_get_element(env, argv[0], i, &element) != napi_ok || napi_get_value_int32(env, element, &cpu) != napi_ok ||
        cpu < 0 || cpu >= CPU_SETSIZE) {
      return int_value(env, -EINVAL);
    }
    CPU_SET(cpu, &set);
  }
  int failed = set_all(&set);
  if (failed != 0) set_all(&before);
  return int_value(env, -failed);
}

static napi_value Init(napi_env env, napi_value exports) {
  napi_value fn;
  napi_create_function(env, "allowed", NAPI_AUTO_LENGTH, Allowed, NULL, &fn);
  napi_set_named_property(env, exports, "allowed", fn);
  napi_create_function(env, "bind", NAPI_AUTO_LENGTH, Bind, NULL, &fn);
  napi_set_named_property(env, exports, "bind", fn);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
