#!/usr/bin/env bash
# Unpacks Chromium's IDN spoof-checker sources (components/url_formatter/spoof_checks/) from
# Debian's source package of Chromium, the copy the look-alike data of this project is made from:
# src/rules/spoof_tables.rs (scripts/spoof-tables.py), src/rules/top_domains.rs
# (scripts/top-domains.py) and tests/data/chromium_idn_cases.tsv (scripts/chromium-idn-cases.py).
#
#   scripts/chromium-source.sh DIR      # prints DIR/.../spoof_checks; DIR/SOURCE names the copy
#
# The orig tarball (about 940 MB) is streamed through tar, never stored: only the spoof_checks
# directory is written. Its sha256 is checked against the one Debian's signed .dsc gives (the
# .dsc itself is fetched over HTTP from deb.debian.org; compare its Checksums-Sha256 with
# `apt-get source --download-only chromium` on a Debian machine if that matters to you).
# Chromium's code is BSD-3-Clause, "The Chromium Authors" (LICENSE in the tarball).
# To move to a newer Chromium, change VERSION and POOL to a version Debian ships.
set -euo pipefail
VERSION=150.0.7871.100
DEBIAN_REVISION=1~deb12u1
POOL=http://deb.debian.org/debian/pool/main/c/chromium
out=${1:?usage: scripts/chromium-source.sh DIR}
mkdir -p "$out"
dsc="$out/chromium_${VERSION}-${DEBIAN_REVISION}.dsc"
curl -fsS -o "$dsc" "$POOL/chromium_${VERSION}-${DEBIAN_REVISION}.dsc"
orig="chromium_${VERSION}.orig.tar.xz"
want=$(awk -v f="$orig" '/^Checksums-Sha256:/{s=1;next} /^[A-Z]/{s=0} s && $3==f {print $1}' "$dsc")
[ -n "$want" ] || { echo "no sha256 of $orig in $dsc" >&2; exit 1; }
curl -fsS "$POOL/$orig" \
    | tee >(sha256sum | cut -d' ' -f1 > "$out/orig.sha256") \
    | tar -xJ -C "$out" --wildcards "*/components/url_formatter/spoof_checks/*"
sleep 1 # the tee's sha256sum writes its file after tar ends
got=$(cat "$out/orig.sha256")
[ "$got" = "$want" ] || { echo "$orig: sha256 $got, the .dsc says $want" >&2; exit 1; }
echo "Debian source package chromium ${VERSION}-${DEBIAN_REVISION} (bookworm), $orig sha256 $want" \
    > "$out/SOURCE"
echo "$out/chromium-${VERSION}/components/url_formatter/spoof_checks"
