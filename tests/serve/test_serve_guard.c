/* Unit tests of the request guard of mgtlm serve (tools/serve/serve_guard.c), from
 * the rules of docs/serve.md, "Security model": the Host must name the listener
 * (its numeric address, a loopback name for a loopback listener, any numeric address
 * for a wildcard one) with the bound port (none = 80); an Origin must be http:// and
 * such a host; a token comes as "Bearer T" (scheme in any case) or as the query's. */
#include "tests/unit/harness.h"
#include "tools/serve/serve_guard.h"

static void test_loopback_listener(void)
{
    CHECK(serve_guard_host_ok("127.0.0.1", 8642, "127.0.0.1:8642"));
    CHECK(serve_guard_host_ok("127.0.0.1", 8642, "localhost:8642"));
    CHECK(serve_guard_host_ok("127.0.0.1", 8642, "LocalHost:8642"));
    CHECK(serve_guard_host_ok("127.0.0.1", 8642, "127.1.2.3:8642"));
    CHECK(serve_guard_host_ok("127.0.0.1", 8642, "[::1]:8642"));
    CHECK(serve_guard_host_ok("127.0.0.1", 80, "localhost"));
    CHECK(!serve_guard_host_ok("127.0.0.1", 8642, "localhost"));
    CHECK(!serve_guard_host_ok("127.0.0.1", 8642, "127.0.0.1:8643"));
    CHECK(!serve_guard_host_ok("127.0.0.1", 8642, "evil.example:8642"));
    CHECK(!serve_guard_host_ok("127.0.0.1", 8642, "localhost.evil.example:8642"));
    CHECK(!serve_guard_host_ok("127.0.0.1", 8642, "10.0.0.1:8642"));
    CHECK(!serve_guard_host_ok("127.0.0.1", 8642, "::1:8642"));
    CHECK(!serve_guard_host_ok("127.0.0.1", 8642, "[localhost]:8642"));
    CHECK(!serve_guard_host_ok("127.0.0.1", 8642, "[127.0.0.1]:8642"));
    CHECK(!serve_guard_host_ok("::1", 8642, "[::1]8642"));
    CHECK(serve_guard_host_ok("::1", 8642, "[::1]:8642"));
}

static void test_malformed_ports(void)
{
    CHECK(!serve_guard_host_ok("127.0.0.1", 8642, "127.0.0.1:"));
    CHECK(!serve_guard_host_ok("127.0.0.1", 8642, "127.0.0.1:+8642"));
    CHECK(!serve_guard_host_ok("127.0.0.1", 8642, "127.0.0.1:008642"));
    CHECK(!serve_guard_host_ok("127.0.0.1", 8642, "127.0.0.1:8642/"));
    CHECK(!serve_guard_host_ok("127.0.0.1", 8642, ":8642"));
    CHECK(!serve_guard_host_ok("127.0.0.1", 8642, ""));
    CHECK(serve_guard_host_ok("127.0.0.1", 8642, "127.0.0.1:08642"));
}

static void test_other_listeners(void)
{
    CHECK(serve_guard_host_ok("0.0.0.0", 8642, "192.168.1.20:8642"));
    CHECK(serve_guard_host_ok("0.0.0.0", 8642, "localhost:8642"));
    CHECK(!serve_guard_host_ok("0.0.0.0", 8642, "myhost.example:8642"));
    CHECK(serve_guard_host_ok("::", 8642, "[fe80::1]:8642"));
    CHECK(serve_guard_host_ok("192.168.1.20", 8642, "192.168.1.20:8642"));
    CHECK(!serve_guard_host_ok("192.168.1.20", 8642, "192.168.1.21:8642"));
    CHECK(!serve_guard_host_ok("192.168.1.20", 8642, "localhost:8642"));
    CHECK(!serve_guard_host_ok("192.168.1.20", 8642, "127.0.0.1:8642"));
}

static void test_check(void)
{
    ServeRefusal why;
    const char *h = "127.0.0.1:8642";
    CHECK(serve_guard_check("127.0.0.1", 8642, NULL, h, NULL, NULL, NULL, &why));
    CHECK(!serve_guard_check("127.0.0.1", 8642, NULL, NULL, NULL, NULL, NULL, &why));
    CHECK(why.status == 403);
    CHECK_STR(why.reason, "Host: missing");
    CHECK(serve_guard_check("127.0.0.1", 8642, NULL, h, "http://localhost:8642", NULL,
                            NULL, &why));
    CHECK(!serve_guard_check("127.0.0.1", 8642, NULL, h, "https://127.0.0.1:8642", NULL,
                             NULL, &why));
    CHECK(why.status == 403);
    CHECK(!serve_guard_check("127.0.0.1", 8642, NULL, h, "null", NULL, NULL, &why));
    CHECK(!serve_guard_check("127.0.0.1", 8642, NULL, h, "http://127.0.0.1:8642/", NULL,
                             NULL, &why));
    CHECK(serve_guard_check("127.0.0.1", 8642, "k3y", h, NULL, "Bearer k3y", NULL, &why));
    CHECK(serve_guard_check("127.0.0.1", 8642, "k3y", h, NULL, "bEARER k3y", NULL, &why));
    CHECK(serve_guard_check("127.0.0.1", 8642, "k3y", h, NULL, NULL, "k3y", &why));
    CHECK(!serve_guard_check("127.0.0.1", 8642, "k3y", h, NULL, NULL, NULL, &why));
    CHECK(why.status == 401);
    CHECK(!serve_guard_check("127.0.0.1", 8642, "k3y", h, NULL, "Bearer k3", NULL, &why));
    CHECK(
        !serve_guard_check("127.0.0.1", 8642, "k3y", h, NULL, "Bearer k3yy", NULL, &why));
    CHECK(!serve_guard_check("127.0.0.1", 8642, "k3y", h, NULL, "Basic k3y", NULL, &why));
    CHECK(!serve_guard_check("127.0.0.1", 8642, "k3y", h, NULL, "Bearer x", "k3y", &why));
    CHECK(why.status == 401);
    CHECK(!serve_guard_check("127.0.0.1", 8642, "k3y", "evil:8642", NULL, "Bearer k3y",
                             NULL, &why));
    CHECK(why.status == 403);
}

int main(void)
{
    RUN(test_loopback_listener);
    RUN(test_malformed_ports);
    RUN(test_other_listeners);
    RUN(test_check);
    return harness_report();
}
