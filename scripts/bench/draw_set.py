#!/usr/bin/env python3
"""Draws a corpus set with the corpus generator, exactly as `gen.py` would, and writes beside it
`overprinted.json`: for each letter, the lines the generator printed over other ink (a long
institution name running into the contact block beside it, a logo under a line). No reader can
read such a line, so the number bench counts its numbers apart from the legible ones.

    python3 scripts/bench/draw_set.py --gen ../shared/corpus/gen.py --bank scripts/fixtures/letter_bank_b.py \\
        --out .bench/numbers-b-305 --n 40 --seed 305

Every argument after --gen goes to the generator unchanged; the images are the generator's own."""
import importlib.util
import json
import os
import sys


def boxes(ops):
    """(kind, text, box) of every op that puts ink on the page; a text's box is its ink's bounds."""
    out = []
    for op in ops:
        if op[0] == "text":
            _, x, y, t, fnt, _col = op
            l, t_, r, b = fnt.getbbox(t)
            if r > l and b > t_:
                out.append(("text", t, (x + l, y + t_, x + r, y + b)))
        elif op[0] == "logo":
            _, x, y, s, _col, _kind = op
            out.append(("logo", None, (x, y, x + s, y + s)))
    return out


def overprinted(ops):
    """Text lines whose ink box is overlapped, by a tenth of its area or more, by another op's ink box."""
    found = []
    items = boxes(ops)
    for i, (kind, text, a) in enumerate(items):
        if kind != "text" or not text.strip():
            continue
        area = (a[2] - a[0]) * (a[3] - a[1])
        for j, (_k, _t, b) in enumerate(items):
            if i == j:
                continue
            w = min(a[2], b[2]) - max(a[0], b[0])
            h = min(a[3], b[3]) - max(a[1], b[1])
            if w > 0 and h > 0 and w * h >= 0.1 * area:
                found.append(text)
                break
    return found


def main():
    args = sys.argv[1:]
    if "--gen" not in args:
        sys.exit(__doc__)
    k = args.index("--gen")
    path = args[k + 1]
    rest = args[:k] + args[k + 2:]
    out = rest[rest.index("--out") + 1]
    spec = importlib.util.spec_from_file_location("corpus_gen", path)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)

    record = {}
    current = []
    draw = gen.Gen.draw
    build = gen.Gen.build

    def watched_draw(self, ops, rng):
        current.extend(overprinted(ops))
        return draw(self, ops, rng)

    def watched_build(self, *a, **kw):
        current.clear()
        truth = build(self, *a, **kw)
        if current:
            record[truth["id"]] = list(dict.fromkeys(current))
        return truth

    gen.Gen.draw = watched_draw
    gen.Gen.build = watched_build
    gen.main(rest)
    with open(os.path.join(out, "overprinted.json"), "w", encoding="utf-8") as fh:
        json.dump(record, fh, ensure_ascii=False, indent=1)
    print(f"{len(record)} letters with lines printed over other ink", file=sys.stderr)


if __name__ == "__main__":
    main()
