/* libFuzzer target for the HTTP layer of `mgtlm serve` (tools/serve/serve_http.c,
 * serve_guard.c, serve_logs.c over libevent's evhttp): the input is sent as raw bytes
 * on a fresh loopback TCP connection to a real server (platform
 * tests/serve/mem1.json, endpoint tb.host on gpu0.mem.in, access token "t0k"), with
 * every "@P" replaced by the bound port so that seeds can carry a valid Host. The
 * client then closes its sending side and the server loop (socket poll, simulation
 * slice, log flush) turns until the server closes the connection or for at most
 * FUZZ_ROUNDS rounds. The server lives across inputs; after every 256 it is reset
 * like POST /api/reset. Crashes, leaks and sanitizer reports are failures. */
#define _DEFAULT_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/event.h>

#include "hw/blocks.h"
#include "tools/serve/endpoint.h"
#include "tools/serve/serve.h"
#include "tools/serve/serve_http.h"
#include "tools/serve/serve_logs.h"

#define FUZZ_ROUNDS 64
#define FUZZ_MAX_INPUT 65536

static Server fuzz_server;
static ServeConfig fuzz_cfg;
static unsigned fuzz_inputs;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    SimError err;
    Registry *r = registry_new();
    if (!r || !hw_register(r, &err) || !endpoint_register(r, &err)) {
        fprintf(stderr, "fuzz_http: %s\n", r ? err.msg : "no memory");
        exit(2);
    }
    fuzz_cfg.registry = r;
    fuzz_cfg.platform = "tests/serve/mem1.json";
    fuzz_cfg.host = "127.0.0.1";
    fuzz_cfg.token = "t0k";
    snprintf(fuzz_cfg.attach[0].name, sizeof fuzz_cfg.attach[0].name, "tb.host");
    fuzz_cfg.attach[0].target = "gpu0.mem.in";
    fuzz_cfg.nattach = 1;
    fuzz_cfg.max_body = 64 * 1024;
    fuzz_cfg.max_conns = 64;
    fuzz_cfg.max_streams = 8;
    fuzz_cfg.idle_timeout = 15;
    fuzz_cfg.slice_events = 2000;
    fuzz_cfg.quantum = SIM_US;
    fuzz_server.cfg = &fuzz_cfg;
    fuzz_server.last_stop = "start";
    fuzz_server.base = event_base_new();
    if (!fuzz_server.base || !serve_http_start(&fuzz_server, &err) ||
        !serve_build(&fuzz_server, &err)) {
        fprintf(stderr, "fuzz_http: %s\n", fuzz_server.base ? err.msg : "no event base");
        exit(2);
    }
    return 0;
}

/* One turn of the serve loop (serve_loop.c), never blocking. */
static void serve_round(Server *s)
{
    event_base_loop(s->base, EVLOOP_NONBLOCK);
    if (serve_wants_time(s) && !serve_logs_backlogged(s)) {
        serve_advance(s, s->cfg->slice_events);
    }
    serve_logs_flush(s);
}

/* The input with every "@P" replaced by the port (out holds FUZZ_MAX_INPUT bytes). */
static size_t substitute_port(const uint8_t *data, size_t size, char *out)
{
    char port[8];
    int pl = snprintf(port, sizeof port, "%u", fuzz_server.http_port);
    size_t n = 0;
    for (size_t i = 0; i < size && n + 8 < FUZZ_MAX_INPUT; i++) {
        if (data[i] == '@' && i + 1 < size && data[i + 1] == 'P') {
            memcpy(out + n, port, (size_t)pl);
            n += (size_t)pl;
            i++;
        } else {
            out[n++] = (char)data[i];
        }
    }
    return n;
}

/* A non-blocking connection to the server. libFuzzer's timeout alarm (SIGALRM)
   interrupts system calls, so a connect that returns EINTR goes on in the background:
   wait for it rather than fail. */
static int connect_server(void)
{
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)fuzz_server.http_port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    int e = 0;
    socklen_t elen = sizeof e;
    if (fd < 0) {
        perror("fuzz_http: socket");
        exit(2);
    }
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        if (errno != EINPROGRESS && errno != EINTR) {
            perror("fuzz_http: connect");
            exit(2);
        }
        struct pollfd p = {.fd = fd, .events = POLLOUT};
        while (poll(&p, 1, -1) != 1) {
            serve_round(&fuzz_server);
        }
        if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &elen) != 0 || e != 0) {
            fprintf(stderr, "fuzz_http: connect: %s\n", strerror(e));
            exit(2);
        }
    }
    return fd;
}

/* Sends the request bytes while the server reads them; stops at a write error (the
   server may close first). */
static void send_all(int fd, const char *buf, size_t n)
{
    size_t off = 0;
    while (off < n) {
        ssize_t w = send(fd, buf + off, n - off, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w > 0) {
            off += (size_t)w;
        } else if (w < 0 && errno != EAGAIN && errno != EINTR) {
            return;
        }
        serve_round(&fuzz_server);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char buf[FUZZ_MAX_INPUT];
    size_t n = substitute_port(data, size, buf);
    int fd = connect_server();
    send_all(fd, buf, n);
    shutdown(fd, SHUT_WR);
    for (int round = 0; round < FUZZ_ROUNDS; round++) {
        serve_round(&fuzz_server);
        struct pollfd p = {.fd = fd, .events = POLLIN};
        char sink[4096];
        if (poll(&p, 1, 1) == 1 && recv(fd, sink, sizeof sink, MSG_DONTWAIT) == 0) {
            break;
        }
    }
    close(fd);
    for (int round = 0; round < 4; round++) {
        serve_round(&fuzz_server);
    }
    if (++fuzz_inputs % 256 == 0 || !fuzz_server.plat) {
        SimError err;
        serve_reset_prepare(&fuzz_server);
        if (!serve_build(&fuzz_server, &err)) {
            fprintf(stderr, "fuzz_http: reset: %s\n", err.msg);
            abort();
        }
    }
    return 0;
}
