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

#include "cli_opt.h"
#include "cli_set.h"
#include "commands.h"
#include "kernel/units.h"
#include "tools/serve/endpoint.h"
#include "tools/serve/serve.h"

enum {
    SERVE_ALLOW_REMOTE = CLI_LONG_ONLY,
    SERVE_ATTACH,
    SERVE_PCIE_IP,
    SERVE_QUANTUM,
    SERVE_SLICE_EVENTS,
    SERVE_MAX_BODY,
    SERVE_MAX_CONNS,
    SERVE_PCIE_TIMEOUT,
    SERVE_IDLE_TIMEOUT,
    SERVE_TOKEN,
    SERVE_TOKEN_FILE,
};

static const CliOpt serve_opts[] = {
    {'l', "listen", "HOST:PORT", "HTTP address (127.0.0.1:8642; port 0: any free)",
     false},
    {SERVE_ALLOW_REMOTE, "allow-remote", NULL, "accept addresses other than loopback",
     false},
    {'s', "set", "inst.param=value", "set a parameter (repeatable; globs allowed)", true},
    {SERVE_ATTACH, "attach", "NAME=PORT",
     "wire tb.NAME to a free port for /api/inject (repeatable)", true},
    {SERVE_PCIE_IP, "pcie-ip", "HOST:PORT=INSTANCE.PORT",
     "bridge a PCIe-over-TCP peer to a port (repeatable)", true},
    {SERVE_QUANTUM, "quantum", "TIME", "simulated time between two socket polls (1us)",
     false},
    {SERVE_SLICE_EVENTS, "slice-events", "N", "events run between two polls (2000)",
     false},
    {SERVE_MAX_BODY, "max-body", "SIZE", "largest accepted request body (64KiB)", false},
    {SERVE_MAX_CONNS, "max-conns", "N", "most open HTTP connections (64, up to 4096)",
     false},
    {SERVE_PCIE_TIMEOUT, "pcie-timeout", "TIME",
     "PCIe/IP completion timeout, wall clock (50ms; 50us..64s)", false},
    {SERVE_IDLE_TIMEOUT, "idle-timeout", "S",
     "seconds a connection may stay silent (15; 1..3600)", false},
    {SERVE_TOKEN, "token", "T", "access token required on every request", false},
    {SERVE_TOKEN_FILE, "token-file", "F",
     "read the access token from the first line of F", false},
    CLI_OPT_HELP,
};

static const CliSpec serve_spec = {
    "mgtlm serve", "PLATFORM [options]",
    "Serves PLATFORM: HTTP JSON API, live dashboard, log streaming and PCIe/IP\n"
    "co-simulation peers (docs/serve.md).",
    serve_opts, sizeof serve_opts / sizeof serve_opts[0]};

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

static bool parse_value(ServeArgs *a, int id, const char *val, json_t *sets)
{
    SimError err;
    uint64_t v;
    char *end;
    if (id == 'l') {
        if (!parse_hostport(val, a->host, sizeof a->host, &a->cfg.port)) {
            fprintf(stderr, "mgtlm serve: --listen %s: expected HOST:PORT\n", val);
            return false;
        }
        return true;
    }
    if (id == 's') {
        if (!cli_set_add(sets, val, &err)) {
            fprintf(stderr, "mgtlm serve: %s\n", err.msg);
            return false;
        }
        return true;
    }
    if (id == SERVE_ATTACH) {
        return parse_attach(a, val);
    }
    if (id == SERVE_PCIE_IP) {
        return parse_pcie(a, val);
    }
    if (id == SERVE_TOKEN) {
        return set_token(a, "--token", val, strlen(val));
    }
    if (id == SERVE_TOKEN_FILE) {
        return read_token_file(a, val);
    }
    if (id == SERVE_QUANTUM) {
        if (!units_parse_time(val, 0, &a->cfg.quantum, &err) || a->cfg.quantum == 0) {
            fprintf(stderr, "mgtlm serve: --quantum %s: %s\n", val,
                    a->cfg.quantum == 0 ? "must be above 0" : err.msg);
            return false;
        }
        return true;
    }
    if (id == SERVE_PCIE_TIMEOUT) {
        if (!units_parse_time(val, 0, &a->cfg.pcie_timeout, &err) ||
            a->cfg.pcie_timeout < 50 * SIM_US ||
            a->cfg.pcie_timeout > 64 * 1000 * SIM_MS) {
            fprintf(stderr,
                    "mgtlm serve: --pcie-timeout %s: expected a time in 50us..64s\n",
                    val);
            return false;
        }
        return true;
    }
    if (id == SERVE_MAX_BODY) {
        if (!units_parse_size(val, &v, &err) || v == 0 || v > (64u << 20)) {
            fprintf(stderr, "mgtlm serve: --max-body %s: expected a size in 1B..64MiB\n",
                    val);
            return false;
        }
        a->cfg.max_body = (size_t)v;
        return true;
    }
    if (id == SERVE_IDLE_TIMEOUT) {
        v = strtoull(val, &end, 10);
        if (*end || end == val || v == 0 || v > 3600) {
            fprintf(stderr,
                    "mgtlm serve: --idle-timeout %s: expected seconds in 1..3600\n", val);
            return false;
        }
        a->cfg.idle_timeout = (unsigned)v;
        return true;
    }
    bool conns = id == SERVE_MAX_CONNS;
    v = strtoull(val, &end, 10);
    if (*end || end == val || v == 0 || v > (conns ? 4096u : 100000000u)) {
        fprintf(stderr, "mgtlm serve: %s %s: expected a positive integer%s\n",
                conns ? "--max-conns" : "--slice-events", val,
                conns ? " up to 4096" : "");
        return false;
    }
    if (conns) {
        a->cfg.max_conns = (unsigned)v;
    } else {
        a->cfg.slice_events = v;
    }
    return true;
}

/* Fills a from argv; on a usage error prints one line and returns false, on --help
 * sets *help and returns false. */
static bool serve_parse_args(int argc, char **argv, ServeArgs *a, json_t *sets,
                             bool *help)
{
    CliParse cp;
    SimError err;
    const char *val;
    int id = CLI_END;
    bool ok = true;
    cli_parse_init(&cp, &serve_spec, argc, argv);
    while (ok && (id = cli_parse_next(&cp, &val, &err)) > 0) {
        if (id == SERVE_ALLOW_REMOTE) {
            a->cfg.allow_remote = true;
        } else {
            ok = parse_value(a, id, val, sets);
        }
    }
    *help = ok && id == CLI_HELP;
    if (!ok || id != CLI_END) {
        if (id == CLI_ERROR) {
            fprintf(stderr, "%s\n", err.msg);
        }
        return false;
    }
    int n;
    char **operands = cli_parse_operands(&cp, &n);
    if (n != 1) {
        fprintf(stderr,
                n ? "mgtlm serve: unexpected argument '%s'\n"
                  : "mgtlm serve: no platform given (try --help)\n",
                n ? operands[1] : "");
        return false;
    }
    a->cfg.platform = operands[0];
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
    a.cfg.pcie_timeout = 50 * SIM_MS;
    a.cfg.registry = r;
    SimError err;
    if (!endpoint_register(r, &err)) {
        fprintf(stderr, "mgtlm serve: %s\n", err.msg);
        json_decref(sets);
        return 2;
    }
    bool help;
    int rc = serve_parse_args(argc, argv, &a, sets, &help) ? serve_main(&a.cfg) : 2;
    if (help) {
        rc = 0;
    }
    json_decref(sets);
    return rc;
}
