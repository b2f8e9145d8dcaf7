/*
 * TCP options of Kong's listen flags that node 20 cannot set: `so_keepalive` (SO_KEEPALIVE with
 * TCP_KEEPIDLE, TCP_KEEPINTVL and TCP_KEEPCNT on an accepted socket; node's setKeepAlive sets
 * the idle time only) and `deferred` (TCP_DEFER_ACCEPT on a listening socket).
 *
 * keepalive(fd, idle, interval, count) -> 0 or -errno; 0 leaves that one at the system default.
 * deferAccept(fd, seconds)             -> 0 or -errno.
 * read(fd) -> [so_keepalive, keepidle, keepintvl, keepcnt, defer_accept, v6only (-1: not IPv6)]
 *             or -errno: what the socket has (tests read back what was set).
 * Built by src/listen/socket-options-addon.ts with the C compiler and node's own headers.
 */
#define NAPI_VERSION 8
#include <node_api.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

static napi_value result(napi_env env, int value) {
  napi_value out;
  napi_create_int32(env, value, &out);
  return out;
}

static int ints(napi_env env, napi_callback_info info, size_t want, int32_t *out) {
  size_t argc = 4;
  napi_value argv[4];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != want) return -1;
  for (size_t i = 0; i < want; i++) {
    if (napi_get_value_int32(env, argv[i], &out[i]) != napi_ok || out[i] < 0) return -1;
  }
  return 0;
}

static napi_value Keepalive(napi_env env, napi_callback_info info) {
  int32_t a[4];
  if (ints(env, info, 4, a) != 0) return result(env, -EINVAL);
  int on = 1;
  if (setsockopt(a[0], SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on) != 0) return result(env, -errno);
  if (a[1] > 0 && setsockopt(a[0], IPPROTO_TCP, TCP_KEEPIDLE, &a[1], sizeof a[1]) != 0) return result(env, -errno);
  if (a[2] > 0 && setsockopt(a[0], IPPROTO_TCP, TCP_KEEPINTVL, &a[2], sizeof a[2]) != 0) return result(env, -errno);
  if (a[3] > 0 && setsockopt(a[0], IPPROTO_TCP, TCP_KEEPCNT, &a[3], sizeof a[3]) != 0) return result(env, -errno);
  return result(env, 0);
}

static napi_value DeferAccept(napi_env env, napi_callback_info info) {
  int32_t a[2];
  if (ints(env, info, 2, a) != 0) return result(env, -EINVAL);
  if (setsockopt(a[0], IPPROTO_TCP, TCP_DEFER_ACCEPT, &a[1], sizeof a[1]) != 0) return result(env, -errno);
  return result(env, 0);
}

static napi_value Read(napi_env env, napi_callback_info info) {
  int32_t fd;
  if (ints(env, info, 1, &fd) != 0) return result(env, -EINVAL);
  static const int levels[6] = { SOL_SOCKET, IPPROTO_TCP, IPPROTO_TCP, IPPROTO_TCP, IPPROTO_TCP, IPPROTO_IPV6 };
  static const int names[6] = { SO_KEEPALIVE, TCP_KEEPIDLE, TCP_KEEPINTVL, TCP_KEEPCNT, TCP_DEFER_ACCEPT, IPV6_V6ONLY };
  int values[6];
  for (int i = 0; i < 6; i++) {
    socklen_t size = sizeof values[i];
    if (getsockopt(fd, levels[i], names[i], &values[i], &size) != 0) {
      // An IPv4 socket has no IPV6_V6ONLY.
      if (i == 5) values[i] = -1;
      else return result(env, -errno);
    }
  }
  napi_value out;
  napi_create_array_with_length(env, 6, &out);
  for (uint32_t i = 0; i < 6; i++) napi_set_element(env, out, i, result(env, values[i]));
  return out;
}

static napi_value Init(napi_env env, napi_value exports) {
  napi_value fn;
  napi_create_function(env, "keepalive", NAPI_AUTO_LENGTH, Keepalive, NULL, &fn);
  napi_set_named_property(env, exports, "keepalive", fn);
  napi_create_function(env, "deferAccept", NAPI_AUTO_LENGTH, DeferAccept, NULL, &fn);
  napi_set_named_property(env, exports, "deferAccept", fn);
  napi_create_function(env, "read", NAPI_AUTO_LENGTH, Read, NULL, &fn);
  napi_set_named_property(env, exports, "read", fn);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
