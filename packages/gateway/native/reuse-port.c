/*
 * A listening socket's SO_REUSEPORT, which node 20 cannot set (net's `reusePort` arrived in
 * node 22.12). Kong's `reuseport` listen flag gives every worker its own socket on the same
 * address; the kernel spreads new connections over them, so no process hands connections to
 * another (node:cluster's round-robin costs the primary ~100 µs per connection).
 *
 * bind(ip, port[, v6only]) -> a bound, non-blocking TCP socket's descriptor (node listens on
 * it), or -errno. `v6only` (0 or 1, Kong's `ipv6only` flag) sets IPV6_V6ONLY on an IPv6 socket;
 * without it the system's default holds. Built by src/listen/reuse-port-addon.ts with the C compiler and node's own headers.
 */
#define NAPI_VERSION 8
#include <node_api.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static napi_value result(napi_env env, int value) {
  napi_value out;
  napi_create_int32(env, value, &out);
  return out;
}

static napi_value Bind(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  char ip[INET6_ADDRSTRLEN + 1];
  size_t len = 0;
  int32_t port = -1;
  int32_t v6only = -1;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 || argc > 3 ||
      (argc == 3 && (napi_get_value_int32(env, argv[2], &v6only) != napi_ok || v6only < 0 || v6only > 1)) ||
      napi_get_value_string_utf8(env, argv[0], ip, sizeof ip, &len) != napi_ok ||
      napi_get_value_int32(env, argv[1], &port) != napi_ok || port < 0 || port > 65535) {
    return result(env, -EINVAL);
  }
  struct sockaddr_storage address;
  socklen_t size;
  memset(&address, 0, sizeof address);
  struct sockaddr_in *v4 = (struct sockaddr_in *)&address;
  struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&address;
  if (inet_pton(AF_INET, ip, &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons((uint16_t)port);
    size = sizeof *v4;
  } else if (inet_pton(AF_INET6, ip, &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons((uint16_t)port);
    size = sizeof *v6;
  } else {
    return result(env, -EINVAL);
  }
  int fd = socket(address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return result(env, -errno);
  int on = 1;
  if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0 ||
      setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on) != 0 ||
      (v6only >= 0 && address.ss_family == AF_INET6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof v6only) != 0) ||
      bind(fd, (struct sockaddr *)&address, size) != 0) {
    int error = errno;
    close(fd);
    return result(env, -error);
  }
  return result(env, fd);
}

static napi_value Init(napi_env env, napi_value exports) {
  napi_value fn;
  napi_create_function(env, "bind", NAPI_AUTO_LENGTH, Bind, NULL, &fn);
  napi_set_named_property(env, exports, "bind", fn);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
