"""Pins, in action.yml, the release the action installs: its version and each archive's SHA-256.

    python .github/scripts/pin_action.py 0.2.0 dist/SHA256SUMS [action.yml]

Run by .github/workflows/release.yml after the archives are built and before the release commit
is tagged, so that the commit tagged vX.Y.Z is the one whose action.yml installs X.Y.Z: used at
that tag, at that commit's SHA or at a branch that holds it, the action downloads exactly those
archives and refuses one whose SHA-256 differs (a release replaced after the fact), without
trusting a checksum file downloaded from the same place. SHA256SUMS is `sha256sum`'s output;
only the release archives (irilint-TARGET.tar.gz, irilint-TARGET.zip) are pinned. Rewrites the
lines between `# BEGIN PINNED` and `# END PINNED`; exits 1 with the reason when the version or a
line is malformed. Also run by tests/release_files.rs.
"""

import re
import sys
from pathlib import Path

ARCHIVE = re.compile(r"irilint-[a-z0-9_]+(-[a-z0-9_]+)+\.(tar\.gz|zip)")


def fail(message):
    print(f"pin_action: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) not in (3, 4):
        fail("usage: pin_action.py VERSION SHA256SUMS [action.yml]")
    version, sums = sys.argv[1], Path(sys.argv[2])
    action = Path(sys.argv[3]) if len(sys.argv) == 4 else Path(__file__).resolve().parents[2] / "action.yml"
    if not re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?", version):
        fail(f"{version!r} is not a version X.Y.Z")
    pins = []
    for line in sums.read_text().splitlines():
        parts = line.split()
        if len(parts) != 2 or not re.fullmatch(r"[0-9a-f]{64}", parts[0]):
            fail(f"{line!r} is not a line of sha256sum")
        name = parts[1].lstrip("*")
        if ARCHIVE.fullmatch(name):
            pins.append(f"{name}={parts[0]}")
    if not pins:
        fail(f"{sums} names no release archive")
    text = action.read_text()
    begin, end = text.find("# BEGIN PINNED"), text.find("# END PINNED")
    if begin < 0 or end < begin:
        fail(f"{action} has no `# BEGIN PINNED` ... `# END PINNED` block")
    block = text[begin:end]
    new = re.sub(r'PINNED_VERSION: ".*"', f'PINNED_VERSION: "{version}"', block)
    new = re.sub(r'PINNED_SHA256: ".*"', f'PINNED_SHA256: "{" ".join(sorted(pins))}"', new)
    if new.count("PINNED_VERSION") != 1 or new.count("PINNED_SHA256") != 1:
        fail(f"the PINNED block of {action} lost a line")
    action.write_text(text[:begin] + new + text[end:])
    print(f"pin_action: {action.name} installs irilint {version}: {len(pins)} archives pinned")


main()
