"""The one palette of mgtlm's plots: every mechanism has its colour in every chart
(and in the dashboard, tools/serve/dashboard.html, which copies MECHANISMS).

A series is a mechanism when its name contains a mechanism's name as a word
("DualOpt coalesce", "gpu4-dir-baseline.json", "P2P stores" = the baseline); several
series of one mechanism (its modes) share the colour and differ by hatch (bars) or by
line style (lines). Series that are no mechanism (parts of a whole, traffic patterns,
link protocols) take the OTHERS colours in order, which no mechanism uses.
Colours: Okabe and Ito's colour-blind-safe set, and grey for the baseline.
"""
import re

MECHANISMS = {
    "baseline": "#555555",
    "dualopt": "#0072b2",
    "finepack": "#e69f00",
    "dir-baseline": "#56b4e9",
    "hmg": "#cc79a7",
    "rec": "#009e73",
    "carve": "#d55e00",
}
# other words naming a mechanism
ALIASES = {"p2p": "baseline", "no rdc": "baseline", "directory": "dir-baseline"}
OTHERS = ["#332288", "#88ccee", "#999933", "#882255", "#44aa99", "#ddcc77", "#aa4499",
          "#117733"]
HATCHES = ["", "//", "..", "xx", "\\\\", "oo", "--", "++"]
LINESTYLES = ["-", "--", ":", "-."]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]


def mechanism(name):
    """The mechanism a series name denotes, or None."""
    low = name.lower()
    keys = sorted(list(MECHANISMS) + list(ALIASES), key=len, reverse=True)
    for key in keys:
        if re.search(r"(^|[^a-z0-9])%s($|[^a-z0-9])" % re.escape(key), low):
            return ALIASES.get(key, key)
    return None


def styles(names):
    """One style per series name, in order: {"colour", "hatch", "linestyle",
    "marker"}. Series of one mechanism share its colour and get the next hatch and
    line style; every series gets its own marker."""
    out, variants, others = [], {}, 0
    for i, name in enumerate(names):
        mech = mechanism(name)
        if mech:
            colour = MECHANISMS[mech]
            v = variants.get(mech, 0)
            variants[mech] = v + 1
        else:
            colour = OTHERS[others % len(OTHERS)]
            v = others // len(OTHERS)
            others += 1
        out.append({"colour": colour, "hatch": HATCHES[v % len(HATCHES)],
                    "linestyle": LINESTYLES[v % len(LINESTYLES)],
                    "marker": MARKERS[i % len(MARKERS)]})
    return out
