"""Refuses a release whose files disagree (run by .github/workflows/release.yml first).

    GITHUB_REF_NAME=v0.1.0 GITHUB_SERVER_URL=https://github.com GITHUB_REPOSITORY=o/irilint \
        python .github/scripts/check_release.py

Checks that the tag is `v` + Cargo.toml's version (the wheels and the crate take that version),
that the pre-commit hook's pyproject.toml installs `irilint==` that version (a `rev:` of this tag
must install this release), and that Cargo.toml's `repository` is the repository releasing (the
cargo binstall metadata and action.yml download from there). Without GITHUB_REF_NAME (a manual
run, no tag) only the two files are compared. Exits 1 with the reasons.
Also run by tests/release_files.rs.
"""

import os
import sys
import tomllib
from pathlib import Path

root = Path(__file__).resolve().parents[2]
cargo = tomllib.loads((root / "Cargo.toml").read_text())["package"]
hook = tomllib.loads((root / "pyproject.toml").read_text())["project"]
version = cargo["version"]
problems = []

pins = hook.get("dependencies", [])
if pins != [f"irilint=={version}"]:
    problems.append(f"pyproject.toml depends on {pins}, not irilint=={version} (Cargo.toml)")
tag = os.environ.get("GITHUB_REF_NAME")
if os.environ.get("GITHUB_REF_TYPE", "tag") == "tag" and tag is not None and tag != f"v{version}":
    problems.append(f"the tag {tag} is not v{version} (Cargo.toml's version)")
server, repository = os.environ.get("GITHUB_SERVER_URL"), os.environ.get("GITHUB_REPOSITORY")
if server and repository and cargo.get("repository") != f"{server}/{repository}":
    problems.append(
        f"Cargo.toml's repository is {cargo.get('repository')}, not {server}/{repository}"
    )

for problem in problems:
    print(f"release: {problem}", file=sys.stderr)
sys.exit(1 if problems else 0)
