#!/usr/bin/env python3
"""The real-repository regression harness: unpacks each pinned commit of repos.txt from its
mirror (MIRRORS, default /work/.mirror; the sources stay out of git), runs irilint on it with
the default settings, and compares every finding with judged.tsv (repo, path, line, rule,
severity, verdict real|false, why). Prints per repository: files, IRIs, errors, warnings,
and every finding not judged yet or judged but gone. Exit 1 when anything differs.

    python3 real-repos/run.py target/release/irilint            # compare
    python3 real-repos/run.py target/release/irilint NAME...    # only these repositories
"""
import json, os, subprocess, sys, tempfile

from harness import here, repos, unpack

binary = os.path.abspath(sys.argv[1])
only = set(sys.argv[2:])
judged = {}
for line in open(os.path.join(here, "judged.tsv"), encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    repo, path, ln, rule, sev, verdict, *_ = line.rstrip("\n").split("\t")
    judged.setdefault(repo, {})[(path, int(ln), rule, sev)] = verdict

differs = False
# Each repository is unpacked, checked and removed in turn (they take hundreds of MB).
for name, mirror, commit, under in repos():
    if only and name not in only:
        continue
    with tempfile.TemporaryDirectory(prefix="irilint-real-") as dest:
        missing = unpack(mirror, commit, under, dest)
        out = subprocess.run([binary, "check", "--format", "json", "--exit-zero", "."], cwd=dest, capture_output=True)
    report = json.loads(out.stdout)
    found = {}
    for d in report["diagnostics"]:
        key = (d["path"], d["span"]["start"]["line"], d["rule"], d["severity"])
        found[key] = d
    s = report["summary"]
    real = sum(1 for k in found if judged.get(name, {}).get(k) == "real")
    absent = f", {len(missing)} files absent from the mirror" if missing else ""
    print(f"{name}: {s['files']} files, {s['iris']} IRIs, {s['errors']} errors, {s['warnings']} warnings, "
          f"{s.get('infos', 0)} infos, {real} judged real{absent}")
    for k in sorted(found):
        if k not in judged.get(name, {}):
            differs = True
            d = found[k]
            print(f"  unjudged\t{name}\t{k[0]}\t{k[1]}\t{k[2]}\t{k[3]}\t{d['message'][:100]}")
    for k in sorted(judged.get(name, {})):
        if k not in found:
            differs = True
            print(f"  gone\t{name}\t" + "\t".join(map(str, k)) + f"\t{judged[name][k]}")
sys.exit(1 if differs else 0)
