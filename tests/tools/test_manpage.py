"""Checks docs/mgtlm.1 against the program: the page renders without a groff warning,
it has one section per subcommand of `mgtlm --help`, and each section lists exactly
the options (long and short names) of that subcommand's --help, so the page and the
help cannot drift apart. Skipped (exit 77) where groff is not installed."""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check, finish  # noqa: E402

ROOT, MGTLM = sys.argv[1], sys.argv[2]
PAGE = os.path.join(ROOT, "docs", "mgtlm.1")
# an option line of --help: "  -s, --set VALUE   help" or "      --dry   help"
HELP_OPT = re.compile(r"^  (?:-(\w), |    )--([a-z][a-z0-9-]*)")
# a section of the rendered page: "   mgtlm run PLATFORM [options]"
PAGE_CMD = re.compile(r"^   mgtlm ([a-z][a-z-]*)\b")
# an option tag of the rendered page: "       -s, --set VALUE" or "       --dry"
PAGE_OPT = re.compile(r"^       (?:-(\w), )?--([a-z][a-z0-9-]*)")


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True)


def commands():
    out = run(MGTLM, "--help").stdout
    return [m.group(1) for m in re.finditer(r"^  ([a-z][a-z-]*) ", out, re.M)]


def help_options(cmd):
    r = run(MGTLM, cmd, "--help")
    check(r.returncode == 0, "mgtlm %s --help exits 0" % cmd)
    return {(m.group(1), m.group(2))
            for m in map(HELP_OPT.match, r.stdout.splitlines()) if m}


def page_options(text):
    sections, current = {}, None
    for line in text.splitlines():
        m = PAGE_CMD.match(line)
        if m:
            current = sections.setdefault(m.group(1), set())
            continue
        if line.startswith("   ") and not line.startswith("    "):
            current = None  # another subsection heading
        if line and not line.startswith(" "):
            current = None  # a section heading (EXIT STATUS, ...)
        m = PAGE_OPT.match(line)
        if m and current is not None:
            current.add((m.group(1), m.group(2)))
    return sections


def main():
    if not shutil.which("groff"):
        print("groff not installed: skipped")
        sys.exit(77)
    lint = run("groff", "-man", "-ww", "-z", PAGE)
    check(lint.returncode == 0 and lint.stderr == "",
          "groff -ww renders the page without warnings: " + lint.stderr.strip())
    text = run("groff", "-man", "-Tascii", "-P-cbou", PAGE).stdout
    sections = page_options(text)
    cmds = commands()
    check(len(cmds) >= 6, "mgtlm --help lists the subcommands")
    check(sorted(sections) == sorted(cmds),
          "page sections %s == subcommands %s" % (sorted(sections), sorted(cmds)))
    for cmd in cmds:
        want = help_options(cmd)
        got = sections.get(cmd, set())
        check(len(want) > 0, "mgtlm %s --help lists options" % cmd)
        check(got == want, "%s: page-only %s, help-only %s"
              % (cmd, sorted(got - want), sorted(want - got)))
    finish()


main()
