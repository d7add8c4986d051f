"""Checks that docs/kernel.md documents every function of the installed headers: each
function declared (or defined inline) at file scope in a header must appear in the
document in backquotes, as `name(` or `name`.

usage: api_doc.py DOC HEADER...
Prints the functions it could not find; exit status 0 only if none is missing."""
import re
import sys

DECL = re.compile(r"^(?:static inline |extern )?(?:__attribute__\(\([^)]*\)\)\) )?"
                  r"[A-Za-z_][\w\s*]*?[\s*](\w+)\(", re.M)


def functions(path):
    with open(path, encoding="utf-8") as f:
        src = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
    return [n for n in DECL.findall(src) if n not in ("defined", "sizeof")]


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = f.read()
    total = 0
    missing = []
    for header in sys.argv[2:]:
        for name in functions(header):
            total += 1
            if not re.search(r"`" + re.escape(name) + r"[`(]", doc):
                missing.append("%s (%s)" % (name, header))
    for m in missing:
        print("not documented in %s: %s" % (sys.argv[1], m))
    print("%d functions in %d headers, %d not documented" %
          (total, len(sys.argv) - 2, len(missing)))
    return total > 0 and not missing


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
