/* `mgtlm serve PLATFORM [options]`: the long-running front end (tools/serve/,
 * docs/serve.md): an HTTP JSON API and dashboard, log streaming, and PCIe/IP
 * co-simulation peers. This file only parses the command line.
 * Decisions: every listening address must be numeric; anything but loopback
 * (127.0.0.0/8, ::1) needs --allow-remote. A token is URL-safe (the dashboard
 * passes it in its query) and --token-file keeps it out of the process list. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_set.h"
#include "commands.h"
#include "kernel/units.h"
#include "tools/serve/endpoint.h"
#include "tools/serve/serve.h"

static void serve_usage(FILE *f)
{
    fprintf(f,
            "usage: mgtlm serve PLATFORM [--listen HOST:PORT] [--allow-remote]\n"
            "                  [--set inst.param=v]... [--attach NAME=PORT]...\n"
            "                  [--pcie-ip HOST:PORT=INSTANCE.PORT]... [--quantum T]\n"
            "                  [--slice-events N] [--max-body SIZE] [--max-conns N]\n"
            "                  [--idle-timeout S] [--token T | --token-file F]\n"
            "  --listen        HTTP address (default 127.0.0.1:8642; port 0 = any free)\n"
            "  --attach        wire endpoint tb.NAME to an unbound platform port for "
            "/api/inject\n"
            "  --pcie-ip       accept a warp-pipe PCIe-over-TCP peer bridged to a port\n"
            "  --quantum       simulated time between two socket polls (default 1us)\n"
            "  --idle-timeout  seconds a connection may stay silent (default 15)\n"
            "  --token         access token required on every request\n");
}

/* Splits "HOST:PORT" (HOST may be "[v6]") into host (written into buf) and port. */
static bool parse_hostport(const char *s, char *buf, size_t n, uint16_t *port)
{
    const char *colon = strrchr(s, ':');
    if (!colon || colon == s) {
        return false;
    }
    size_t hl = (size_t)(colon - s);
    if (s[0] == '[' && colon[-1] == ']') {
        s++;
        hl -= 2;
    }
    if (hl == 0 || hl >= n) {
        return false;
    }
    memcpy(buf, s, hl);
    buf[hl] = '\0';
    char *end;
    long v = strtol(colon + 1, &end, 10);
    if (*end || end == colon + 1 || v < 0 || v > 65535) {
        return false;
    }
    *port = (uint16_t)v;
    return true;
}

static bool host_is_loopback(const char *host, bool *numeric)
{
    unsigned char a[16];
    *numeric = true;
    if (inet_pton(AF_INET, host, a) == 1) {
        return a[0] == 127;
    }
    if (inet_pton(AF_INET6, host, a) == 1) {
        static const unsigned char one[16] = {[15] = 1};
        return memcmp(a, one, 16) == 0;
    }
    *numeric = false;
    return false;
}

static bool check_host(const char *opt, const char *host, bool allow_remote)
{
    bool numeric;
    bool loop = host_is_loopback(host, &numeric);
    if (!numeric) {
        fprintf(stderr, "mgtlm serve: %s: %s is not a numeric IP address\n", opt, host);
        return false;
    }
    if (!loop && !allow_remote) {
        fprintf(stderr,
                "mgtlm serve: %s: %s is not a loopback address (add --allow-remote to "
                "serve other hosts)\n",
                opt, host);
        return false;
    }
    return true;
}

#define SERVE_TOKEN_MAX 256

typedef struct ServeArgs {
    ServeConfig cfg;
    char host[64];
    char token[SERVE_TOKEN_MAX + 2];
    char pcie_hosts[SERVE_MAX_PCIE][64];
} ServeArgs;

static bool parse_attach(ServeArgs *a, const char *val)
{
    const char *eq = strchr(val, '=');
    if (a->cfg.nattach == SERVE_MAX_ATTACH) {
        fprintf(stderr, "mgtlm serve: --attach: at most %d endpoints\n",
                SERVE_MAX_ATTACH);
        return false;
    }
    if (!eq || eq == val || !eq[1] || (size_t)(eq - val) > 48) {
        fprintf(stderr, "mgtlm serve: --attach %s: expected NAME=PORT\n", val);
        return false;
    }
    ServeAttach *at = &a->cfg.attach[a->cfg.nattach++];
    snprintf(at->name, sizeof at->name, "tb.%.*s", (int)(eq - val), val);
    at->target = eq + 1;
    return true;
}

static bool parse_pcie(ServeArgs *a, const char *val)
{
    const char *eq = strchr(val, '=');
    if (a->cfg.npcie == SERVE_MAX_PCIE) {
        fprintf(stderr, "mgtlm serve: --pcie-ip: at most %d peers\n", SERVE_MAX_PCIE);
        return false;
    }
    char hp[96];
    size_t i = a->cfg.npcie;
    ServePcieSpec *p = &a->cfg.pcie[i];
    if (!eq || !eq[1] || (size_t)(eq - val) >= sizeof hp) {
        fprintf(stderr, "mgtlm serve: --pcie-ip %s: expected HOST:PORT=INSTANCE.PORT\n",
                val);
        return false;
    }
    memcpy(hp, val, (size_t)(eq - val));
    hp[eq - val] = '\0';
    if (!parse_hostport(hp, a->pcie_hosts[i], sizeof a->pcie_hosts[i], &p->port)) {
        fprintf(stderr, "mgtlm serve: --pcie-ip %s: expected HOST:PORT=INSTANCE.PORT\n",
                val);
        return false;
    }
    p->host = a->pcie_hosts[i];
    p->target = eq + 1;
    snprintf(p->name, sizeof p->name, "tb.pcie%zu", i);
    a->cfg.npcie++;
    return true;
}

/* A token is 1 to SERVE_TOKEN_MAX URL-safe characters (it may travel in a query). */
static bool set_token(ServeArgs *a, const char *opt, const char *val, size_t len)
{
    bool ok = len > 0 && len <= SERVE_TOKEN_MAX && !a->cfg.token;
    for (size_t i = 0; ok && i < len; i++) {
        ok = strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~",
                    val[i]) != NULL &&
             val[i] != '\0';
    }
    if (!ok) {
        fprintf(stderr, "mgtlm serve: %s: %s\n", opt,
                a->cfg.token ? "only one of --token and --token-file"
                             : "expected 1 to 256 characters among A-Z a-z 0-9 - . _ ~");
        return false;
    }
    memcpy(a->token, val, len);
    a->token[len] = '\0';
    a->cfg.token = a->token;
    return true;
}

/* The token is the file's first line (a regular file, one line, a newline or not);
   opened without blocking, so that a FIFO is refused rather than waited on. */
static bool read_token_file(ServeArgs *a, const char *path)
{
    char buf[SERVE_TOKEN_MAX + 3];
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "mgtlm serve: --token-file %s: %s\n", path,
                fd < 0 ? strerror(errno) : "not a regular file");
        if (fd >= 0) {
            close(fd);
        }
        return false;
    }
    ssize_t n = read(fd, buf, sizeof buf);
    int read_errno = errno;
    close(fd);
    if (n < 0) {
        fprintf(stderr, "mgtlm serve: --token-file %s: %s\n", path, strerror(read_errno));
        return false;
    }
    if (n > 0 && buf[n - 1] == '\n') {
        n--;
    }
    if (n > 0 && buf[n - 1] == '\r') {
        n--;
    }
    return set_token(a, "--token-file", buf, (size_t)n);
}

static bool parse_value(ServeArgs *a, const char *arg, const char *val, json_t *sets)
{
    SimError err;
    uint64_t v;
    char *end;
    if (strcmp(arg, "--listen") == 0) {
        if (!parse_hostport(val, a->host, sizeof a->host, &a->cfg.port)) {
            fprintf(stderr, "mgtlm serve: --listen %s: expected HOST:PORT\n", val);
            return false;
        }
        return true;
    }
    if (strcmp(arg, "--set") == 0) {
        if (!cli_set_add(sets, val, &err)) {
            fprintf(stderr, "mgtlm serve: %s\n", err.msg);
            return false;
        }
        return true;
    }
    if (strcmp(arg, "--attach") == 0) {
        return parse_attach(a, val);
    }
    if (strcmp(arg, "--pcie-ip") == 0) {
        return parse_pcie(a, val);
    }
    if (strcmp(arg, "--token") == 0) {
        return set_token(a, arg, val, strlen(val));
    }
    if (strcmp(arg, "--token-file") == 0) {
        return read_token_file(a, val);
    }
    if (strcmp(arg, "--quantum") == 0) {
        if (!units_parse_time(val, 0, &a->cfg.quantum, &err) || a->cfg.quantum == 0) {
            fprintf(stderr, "mgtlm serve: --quantum %s: %s\n", val,
                    a->cfg.quantum == 0 ? "must be above 0" : err.msg);
            return false;
        }
        return true;
    }
    if (strcmp(arg, "--max-body") == 0) {
        if (!units_parse_size(val, &v, &err) || v == 0 || v > (64u << 20)) {
            fprintf(stderr, "mgtlm serve: --max-body %s: expected a size in 1B..64MiB\n",
                    val);
            return false;
        }
        a->cfg.max_body = (size_t)v;
        return true;
    }
    if (strcmp(arg, "--idle-timeout") == 0) {
        v = strtoull(val, &end, 10);
        if (*end || end == val || v == 0 || v > 3600) {
            fprintf(stderr,
                    "mgtlm serve: --idle-timeout %s: expected seconds in 1..3600\n", val);
            return false;
        }
        a->cfg.idle_timeout = (unsigned)v;
        return true;
    }
    bool conns = strcmp(arg, "--max-conns") == 0;
    if (conns || strcmp(arg, "--slice-events") == 0) {
        v = strtoull(val, &end, 10);
        if (*end || end == val || v == 0 || v > (conns ? 4096u : 100000000u)) {
            fprintf(stderr, "mgtlm serve: %s %s: expected a positive integer%s\n", arg,
                    val, conns ? " up to 4096" : "");
            return false;
        }
        if (conns) {
            a->cfg.max_conns = (unsigned)v;
        } else {
            a->cfg.slice_events = v;
        }
        return true;
    }
    fprintf(stderr, "mgtlm serve: unknown option '%s' (try --help)\n", arg);
    return false;
}

static bool serve_parse_args(int argc, char **argv, ServeArgs *a, json_t *sets)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0) {
            serve_usage(stdout);
            exit(0);
        } else if (strcmp(arg, "--allow-remote") == 0) {
            a->cfg.allow_remote = true;
        } else if (arg[0] != '-') {
            if (a->cfg.platform) {
                fprintf(stderr, "mgtlm serve: unexpected argument '%s'\n", arg);
                return false;
            }
            a->cfg.platform = arg;
        } else if (i + 1 >= argc) {
            fprintf(stderr, "mgtlm serve: %s needs a value\n", arg);
            return false;
        } else if (!parse_value(a, arg, argv[++i], sets)) {
            return false;
        }
    }
    if (!a->cfg.platform) {
        serve_usage(stderr);
        return false;
    }
    if (!check_host("--listen", a->host, a->cfg.allow_remote)) {
        return false;
    }
    for (size_t i = 0; i < a->cfg.npcie; i++) {
        if (!check_host("--pcie-ip", a->cfg.pcie[i].host, a->cfg.allow_remote)) {
            return false;
        }
    }
    return true;
}

int cmd_serve(Registry *r, int argc, char **argv)
{
    ServeArgs a;
    json_t *sets = json_object();
    memset(&a, 0, sizeof a);
    snprintf(a.host, sizeof a.host, "127.0.0.1");
    a.cfg.host = a.host;
    a.cfg.port = 8642;
    a.cfg.sets = sets;
    a.cfg.max_body = 64 * 1024;
    a.cfg.max_conns = 64;
    a.cfg.idle_timeout = 15;
    a.cfg.max_streams = 8;
    a.cfg.slice_events = 2000;
    a.cfg.quantum = SIM_US;
    a.cfg.registry = r;
    SimError err;
    if (!endpoint_register(r, &err)) {
        fprintf(stderr, "mgtlm serve: %s\n", err.msg);
        json_decref(sets);
        return 2;
    }
    int rc = serve_parse_args(argc, argv, &a, sets) ? serve_main(&a.cfg) : 2;
    json_decref(sets);
    return rc;
}
