"""Dependency-free SVG charts for mgtlm's measurement tools.

bar_chart(path, title, categories, series, ylabel)
    Grouped bars: series = {name: [value per category]}.
line_chart(path, title, xlabel, ylabel, series, logx=False)
    Lines with markers: series = {name: [(x, y), ...]}.

Both write a standalone SVG file (no fonts or scripts fetched) and return the path.
Series keep their insertion order; colours come from a fixed palette, so the same
inputs always give byte-identical files.
"""

import math
from xml.sax.saxutils import escape

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
           "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
WIDTH, HEIGHT = 760, 440
LEFT, RIGHT, TOP, BOTTOM = 80, 180, 50, 70


def _fmt(v):
    if v == 0:
        return "0"
    if abs(v) >= 1e6 or abs(v) < 1e-2:
        return "%.2g" % v
    if abs(v - round(v)) < 1e-9:
        return "%d" % round(v)
    return "%.3g" % v


def _nice_ticks(lo, hi, n=5):
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = min((m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw), default=mag * 10)
    t = math.floor(lo / step) * step
    ticks = [round(t, 12)]
    while ticks[-1] < hi - step * 1e-9:
        t += step
        ticks.append(round(t, 12))
    return ticks


def _frame(title, xlabel, ylabel):
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">'
           % (WIDTH, HEIGHT, WIDTH, HEIGHT),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="24" font-size="15" text-anchor="middle">%s</text>'
           % ((LEFT + WIDTH - RIGHT) // 2, escape(title))]
    if xlabel:
        out.append('<text x="%d" y="%d" text-anchor="middle">%s</text>'
                   % ((LEFT + WIDTH - RIGHT) // 2, HEIGHT - 15, escape(xlabel)))
    if ylabel:
        out.append('<text x="18" y="%d" text-anchor="middle" transform="rotate(-90 18 %d)">'
                   '%s</text>' % ((TOP + HEIGHT - BOTTOM) // 2, (TOP + HEIGHT - BOTTOM) // 2,
                                  escape(ylabel)))
    return out


def _y_axis(out, ticks, ymap):
    for t in ticks:
        y = ymap(t)
        out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>'
                   % (LEFT, WIDTH - RIGHT, y, y))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%s</text>'
                   % (LEFT - 6, y + 4, _fmt(t)))
    out.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="black"/>'
               % (LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM, HEIGHT - BOTTOM))
    out.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="black"/>'
               % (LEFT, LEFT, TOP, HEIGHT - BOTTOM))


def _legend(out, names):
    for i, name in enumerate(names):
        y = TOP + 10 + 20 * i
        x = WIDTH - RIGHT + 15
        out.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>'
                   % (x, y - 10, PALETTE[i % len(PALETTE)]))
        out.append('<text x="%d" y="%d">%s</text>' % (x + 18, y, escape(str(name))))


def _write(path, out):
    out.append("</svg>")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    return path


def bar_chart(path, title, categories, series, ylabel):
    """Grouped bar chart; series = {name: [value per category]}."""
    names = list(series)
    vmax = max([max(v) for v in series.values() if v] + [0.0])
    ticks = _nice_ticks(0.0, vmax if vmax > 0 else 1.0)
    top = ticks[-1]
    plot_h = HEIGHT - TOP - BOTTOM

    def ymap(v):
        return HEIGHT - BOTTOM - plot_h * (v / top)

    out = _frame(title, None, ylabel)
    _y_axis(out, ticks, ymap)
    n = max(len(categories), 1)
    group_w = (WIDTH - LEFT - RIGHT) / n
    bar_w = group_w * 0.8 / max(len(names), 1)
    for c, cat in enumerate(categories):
        gx = LEFT + group_w * c + group_w * 0.1
        for s, name in enumerate(names):
            v = series[name][c]
            y = ymap(v)
            out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s">'
                       '<title>%s %s: %s</title></rect>'
                       % (gx + s * bar_w, y, bar_w * 0.95, HEIGHT - BOTTOM - y,
                          PALETTE[s % len(PALETTE)], escape(str(name)), escape(str(cat)),
                          _fmt(v)))
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
                   % (gx + group_w * 0.4, HEIGHT - BOTTOM + 18, escape(str(cat))))
    _legend(out, names)
    return _write(path, out)


def line_chart(path, title, xlabel, ylabel, series, logx=False):
    """Line chart; series = {name: [(x, y), ...]}; logx uses a base-2 log x axis."""
    names = list(series)
    points = [p for pts in series.values() for p in pts]
    xs = [p[0] for p in points] or [0.0, 1.0]
    ys = [p[1] for p in points] or [0.0, 1.0]
    fx = (lambda x: math.log2(x)) if logx else (lambda x: float(x))
    xlo, xhi = fx(min(xs)), fx(max(xs))
    if xhi == xlo:
        xhi = xlo + 1.0
    yticks = _nice_ticks(min(0.0, min(ys)), max(ys) if max(ys) > 0 else 1.0)
    ylo, yhi = yticks[0], yticks[-1]
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def xmap(x):
        return LEFT + plot_w * (fx(x) - xlo) / (xhi - xlo)

    def ymap(y):
        return HEIGHT - BOTTOM - plot_h * (y - ylo) / (yhi - ylo)

    out = _frame(title, xlabel, ylabel)
    _y_axis(out, yticks, ymap)
    for x in sorted(set(xs)):
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
                   % (xmap(x), HEIGHT - BOTTOM + 18, _fmt(x)))
    for s, name in enumerate(names):
        pts = sorted(series[name])
        colour = PALETTE[s % len(PALETTE)]
        if len(pts) > 1:
            out.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                       % (colour, " ".join("%.1f,%.1f" % (xmap(x), ymap(y)) for x, y in pts)))
        for x, y in pts:
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"><title>%s: %s, %s'
                       '</title></circle>' % (xmap(x), ymap(y), colour, escape(str(name)),
                                              _fmt(x), _fmt(y)))
    _legend(out, names)
    return _write(path, out)
