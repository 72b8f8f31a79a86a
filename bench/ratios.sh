#!/usr/bin/env bash
# irilint's speed next to the bare parsers it is built on, on the same files.
#
#   bench/ratios.sh [-n RUNS] [-c CPU] [FORMAT=DIR ...]
#
# FORMAT is html, xml, markdown or text. The files of DIR with the extensions irilint reads as
# that format are linked into a scratch directory (so that both programs read the same files:
# the bare parser would read every file), which is timed twice over, as whole processes pinned
# to one core (CPU, default 0), interleaved, RUNS times (default 7) after one warm-up each:
#   irilint check --format json -j1 DIR      (every rule on every IRI, the report rendered)
#   bench-parsers --iters 0 DIR MODE         (only parses: html5ever's tokenizer, quick-xml with
#                                             every attribute unescaped, pulldown-cmark, linkify)
# and the median of each and of the per-pair ratio is printed, one line per directory.
# Without FORMAT=DIR arguments the subtrees of $CORPUS (html, xml, md, txt) are used: build that
# corpus with the documentation corpus script of the project's benchmark material.
# Both programs are built here in release mode (bench/parsers is a standalone cargo project);
# IRILINT=PATH times that irilint binary instead of building one (to put two builds side by
# side, each against the bare parser: run the script once with each).
set -euo pipefail
cd "$(dirname "$0")/.."

runs=7
cpu=0
while getopts "n:c:" opt; do
    case $opt in
        n) runs=$OPTARG ;;
        c) cpu=$OPTARG ;;
        *) sed -n '2,15p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
    : "${CORPUS:?give FORMAT=DIR arguments, or set CORPUS to the documentation corpus}"
    set -- "html=$CORPUS/html" "xml=$CORPUS/xml" "markdown=$CORPUS/md" "text=$CORPUS/txt"
fi

if [ -z "${IRILINT:-}" ]; then
    cargo build --release --quiet
fi
(cd bench/parsers && cargo build --release --quiet)
irilint=${IRILINT:-$PWD/target/release/irilint}
parsers=$PWD/bench/parsers/target/release/bench-parsers

# Wall-clock seconds of one run of the command, pinned to $cpu, output discarded.
seconds() {
    local start=$EPOCHREALTIME
    taskset -c "$cpu" "$@" > /dev/null 2>&1 || [ $? -eq 1 ]
    awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.4f\n", b - a }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Links (or copies, across file systems) of the files under $1 whose extension is one of $2..
mirror() {
    local dir=$1 to=$2
    shift 2
    local names=()
    for ext in "$@"; do names+=(-o -iname "*.$ext"); done
    mkdir -p "$to"
    (cd "$dir" && find . -type f \( "${names[@]:1}" \) -print0 |
        xargs -0 -r cp -l --parents -t "$to" 2> /dev/null) ||
        (cd "$dir" && find . -type f \( "${names[@]:1}" \) -print0 | xargs -0 -r cp --parents -t "$to")
}

printf '%-9s %-40s %6s %8s %12s %12s %9s\n' format directory files MB irilint_s parser_s ratio
for pair in "$@"; do
    format=${pair%%=*}
    dir=${pair#*=}
    # The extensions irilint reads as each format (the book, docs/src/formats.md).
    case $format in
        html) mode=html-tok exts=(html htm shtml xhtml) ;;
        xml) mode=xml exts=(xml svg atom rss rdf owl xsd xsl xslt page docbook opf xlf xliff) ;;
        markdown | md) mode=md exts=(md markdown mdx) ;;
        text | txt) mode=linkify exts=(txt text) ;;
        *) echo "unknown format '$format' (html, xml, markdown or text)" >&2; exit 2 ;;
    esac
    [ -d "$dir" ] || { echo "not a directory: $dir" >&2; exit 2; }
    files=$scratch/$format
    mirror "$dir" "$files" "${exts[@]}"
    ours=(check --format json -j1 "$files")
    theirs=(--iters 0 "$files" "$mode")
    seconds "$irilint" "${ours[@]}" > /dev/null
    seconds "$parsers" "${theirs[@]}" > /dev/null
    a=() b=() r=()
    for _ in $(seq "$runs"); do
        x=$(seconds "$irilint" "${ours[@]}")
        y=$(seconds "$parsers" "${theirs[@]}")
        a+=("$x") b+=("$y")
        r+=("$(awk -v x="$x" -v y="$y" 'BEGIN { printf "%.4f\n", x / y }')")
    done
    count=$(find "$files" -type f | wc -l)
    mb=$(du -sm --apparent-size "$files" | cut -f1)
    printf '%-9s %-40s %6s %8s %12s %12s %9s\n' "$format" "$dir" "$count" "$mb" \
        "$(printf '%s\n' "${a[@]}" | median)" "$(printf '%s\n' "${b[@]}" | median)" \
        "$(printf '%s\n' "${r[@]}" | median)"
done
