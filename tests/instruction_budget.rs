//! The speed guard (book: Performance, "The guard"): irilint's instructions over the bare
//! parser's, on the same generated files, per format, within the budgets of
//! `bench/instruction-budgets.txt`.
//!
//! Both programs are counted whole, as processes, by valgrind's callgrind (deterministic, unlike
//! a clock on a shared machine): irilint as released (the binary of the wheel that
//! `tests/wheel.rs` builds, the release profile with fat LTO, so no build of its own) as
//! `irilint check --format json -j1 DIR`, and the bare parser program of `bench/parsers`
//! (html5ever's tokenizer, quick-xml, pulldown-cmark, linkify; release build, kept in
//! `CARGO_TARGET_TMPDIR`) as `bench-parsers --iters 0 DIR MODE`: what `bench/ratios.sh` times.
//! The files are made here from a fixed seed, real-shaped: documentation pages in several
//! languages, SVG icons and Mallard pages, READMEs and a Markdown changelog large enough to be
//! parsed in chunks, notes with URLs, and text full of IDN hosts (accented Latin, and Cyrillic
//! look-alikes of Latin names). A ratio over its budget fails; so does a missing valgrind in CI
//! (`.ci/run` installs it). Elsewhere, without valgrind or maturin, the test says why it is
//! skipped. `IRILINT_GUARD_BINARY=path` counts that irilint instead of the wheel's (a local
//! build, to measure a change); `IRILINT_GUARD_INPUTS=dir` writes the files there and keeps them.

mod consumers;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The committed budgets: `FORMAT RATIO` lines.
const BUDGETS: &str = include_str!("../bench/instruction-budgets.txt");

/// The formats (their budget lines and input folders) and the bare parser's mode for each.
const FORMATS: [(&str, &str); 5] = [
    ("html", "html-tok"),
    ("xml", "xml"),
    ("markdown", "md"),
    ("text", "linkify"),
    ("idn", "linkify"),
];

#[test]
fn irilint_stays_within_its_instruction_budget_over_the_bare_parsers() {
    let Some(valgrind) = require(on_path("valgrind"), "valgrind (apt-get install valgrind)") else {
        return;
    };
    let budgets = budgets();
    let irilint = match std::env::var_os("IRILINT_GUARD_BINARY") {
        Some(path) => PathBuf::from(path),
        None => {
            let Some(built) = consumers::wheel::built() else {
                return;
            };
            binary_of_wheel(&built.wheel)
        }
    };
    let parsers = bare_parsers();

    let scratch = tempfile::tempdir().unwrap();
    let inputs = std::env::var_os("IRILINT_GUARD_INPUTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| scratch.path().join("inputs"));
    write_inputs(&inputs);

    // Two at a time (CI has two cores); each count is the whole process's.
    let jobs: Vec<(usize, bool)> = (0..FORMATS.len())
        .flat_map(|i| [(i, true), (i, false)])
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let counts = std::sync::Mutex::new(vec![[0u64; 2]; FORMATS.len()]);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&(i, ours)) = jobs.get(k) else { break };
                    let (format, mode) = FORMATS[i];
                    let dir = inputs.join(format);
                    let mut command = if ours {
                        let mut c = Command::new(&irilint);
                        c.args(["check", "--format", "json", "-j1"]).arg(&dir);
                        c
                    } else {
                        let mut c = Command::new(&parsers);
                        c.args(["--iters", "0"]).arg(&dir).arg(mode);
                        c
                    };
                    let n = instructions(&valgrind, &mut command, scratch.path());
                    counts.lock().unwrap()[i][usize::from(!ours)] = n;
                }
            });
        }
    });
    let counts = counts.into_inner().unwrap();

    let mut table = String::from("format      irilint      bare parser   ratio  budget\n");
    let mut over = Vec::new();
    for (i, (format, _)) in FORMATS.iter().enumerate() {
        let [ours, theirs] = counts[i];
        let ratio = ours as f64 / theirs as f64;
        let budget = budgets[i];
        writeln!(
            table,
            "{format:<9} {ours:>13} {theirs:>13} {ratio:>7.4} {budget:>7.4}"
        )
        .unwrap();
        if ratio > budget {
            over.push(format!("{format}: {ratio:.4} > {budget}"));
        }
    }
    eprintln!("{table}");
    assert!(
        over.is_empty(),
        "over the instruction budget of bench/instruction-budgets.txt: {}\n{table}\
         Find what got slower (callgrind with symbols: `cargo build --profile profiling`); \
         raising a budget is a reviewed change whose commit says why.",
        over.join(", ")
    );
}

/// The budgets of [`FORMATS`], in its order; every format has one, and only those.
fn budgets() -> Vec<f64> {
    let mut found: Vec<(String, f64)> = Vec::new();
    for line in BUDGETS.lines() {
        let line = line.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(format), Some(ratio), None) = (words.next(), words.next(), words.next()) else {
            panic!("bench/instruction-budgets.txt: not `FORMAT RATIO`: {line}");
        };
        let ratio: f64 = ratio
            .parse()
            .unwrap_or_else(|_| panic!("bench/instruction-budgets.txt: not a ratio: {line}"));
        assert!(ratio > 0.0, "{line}");
        found.push((format.to_string(), ratio));
    }
    let names: Vec<&str> = found.iter().map(|(f, _)| f.as_str()).collect();
    let wanted: Vec<&str> = FORMATS.iter().map(|(f, _)| *f).collect();
    assert_eq!(
        names, wanted,
        "bench/instruction-budgets.txt: one line per format"
    );
    found.into_iter().map(|(_, r)| r).collect()
}

/// Instructions callgrind counts for the whole of `command` (all its threads). Its output is
/// discarded (irilint still renders its report); exit code 1 (findings) is success.
fn instructions(valgrind: &Path, command: &mut Command, scratch: &Path) -> u64 {
    let program = command.get_program().to_owned();
    let args: Vec<_> = command.get_args().map(|a| a.to_owned()).collect();
    let out_file = tempfile::NamedTempFile::new_in(scratch).unwrap();
    let out = Command::new(valgrind)
        .arg("--tool=callgrind")
        .arg(format!(
            "--callgrind-out-file={}",
            out_file.path().display()
        ))
        .arg(&program)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{} {args:?}: {:?}\n{stderr}",
        program.display(),
        out.status
    );
    stderr
        .lines()
        .find_map(|l| {
            l.split_once("Collected :")
                .map(|(_, n)| n.trim().parse().ok())
        })
        .flatten()
        .unwrap_or_else(|| panic!("no callgrind total for {program:?}:\n{stderr}"))
}

/// `tool` if found; otherwise a failure in CI, a message saying why the test is skipped elsewhere.
fn require(tool: Option<PathBuf>, what: &str) -> Option<PathBuf> {
    if tool.is_none() {
        assert!(!consumers::in_ci(), "CI is set and {what} is not installed");
        eprintln!("SKIPPED: {what} is not installed");
    }
    tool
}

fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The `irilint` program inside the wheel, unpacked next to it.
fn binary_of_wheel(wheel: &Path) -> PathBuf {
    let to = wheel.with_extension("irilint");
    let unzip = "import sys, zipfile\n\
        z = zipfile.ZipFile(sys.argv[1])\n\
        [name] = [n for n in z.namelist() if n.endswith('.data/scripts/irilint')]\n\
        open(sys.argv[2], 'wb').write(z.read(name))\n";
    let ok = Command::new("python3")
        .args(["-c", unzip])
        .arg(wheel)
        .arg(&to)
        .status()
        .unwrap();
    assert!(ok.success(), "no irilint in {}", wheel.display());
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o755)).unwrap();
    to
}

/// `bench/parsers` built in release mode (a cargo project of its own, with its lock file).
fn bare_parsers() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-parsers");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "build",
            "--release",
            "--locked",
            "--quiet",
            "--manifest-path",
        ])
        .arg(root.join("bench/parsers/Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "building bench/parsers: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    target.join("release/bench-parsers")
}

// ---------------------------------------------------------------------------------------------
// The inputs: the same bytes on every run (a fixed seed, no clock, no hash order).

/// xorshift64*: a fixed sequence from a fixed seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, of: &[&'a str]) -> &'a str {
        of[self.below(of.len())]
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

const WORDS: &[&str] = &[
    "the",
    "linter",
    "reads",
    "every",
    "link",
    "in",
    "a",
    "page",
    "and",
    "checks",
    "its",
    "host",
    "path",
    "query",
    "for",
    "hidden",
    "characters",
    "documentation",
    "package",
    "install",
    "configure",
    "server",
    "network",
    "option",
    "file",
    "system",
    "user",
    "manual",
    "version",
    "release",
    "support",
    "example",
    "reference",
    "guide",
    "chapter",
    "section",
    "table",
    "default",
    "value",
    "command",
    "error",
    "warning",
    "is",
    "to",
    "of",
    "with",
    "on",
    "this",
    "that",
    "be",
    "are",
    "from",
    "by",
    "see",
    "also",
    "when",
    "which",
    "you",
    "can",
    "not",
];

/// Words of the other languages of a documentation corpus.
const FOREIGN: &[&str] = &[
    "Dokumentation",
    "Paket",
    "Einstellungen",
    "über",
    "Größe",
    "français",
    "première",
    "démarrage",
    "système",
    "configuración",
    "instalación",
    "página",
    "документация",
    "пакет",
    "установка",
    "настройка",
    "система",
    "ρυθμίσεις",
    "σύστημα",
    "ドキュメント",
    "パッケージ",
    "文档",
    "软件包",
    "설치",
    "çalıştırma",
    "własność",
    "příručka",
];

const HOSTS: &[&str] = &[
    "www.debian.org",
    "packages.debian.org",
    "docs.python.org",
    "en.wikipedia.org",
    "github.com",
    "example.org",
    "lists.debian.org",
    "bugs.debian.org",
    "www.gnu.org",
    "help.gnome.org",
    "kernel.org",
    "crates.io",
];

fn sentence(r: &mut Rng, foreign: bool) -> String {
    let n = 6 + r.below(14);
    let mut s = String::new();
    for i in 0..n {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(if foreign && r.chance(40) {
            r.pick(FOREIGN)
        } else {
            r.pick(WORDS)
        });
    }
    s.push('.');
    s
}

fn segment(r: &mut Rng) -> String {
    let mut s = r.pick(WORDS).to_string();
    if r.chance(30) {
        s.push('-');
        s.push_str(r.pick(WORDS));
    }
    s
}

/// A URL as documentation writes them: absolute, with a query, an IRI in another script, a
/// percent-encoded path, a fragment.
fn url(r: &mut Rng) -> String {
    match r.below(10) {
        0 => format!("https://de.wikipedia.org/wiki/{}", r.pick(FOREIGN)),
        1 => format!(
            "https://{}/wiki/Gr%C3%B6%C3%9Fe_{}",
            r.pick(HOSTS),
            segment(r)
        ),
        2 => format!(
            "https://{}/search?q={}&lang=de&page={}",
            r.pick(HOSTS),
            segment(r),
            r.below(40)
        ),
        3 => format!("http://{}/{}/#{}", r.pick(HOSTS), segment(r), segment(r)),
        _ => format!(
            "https://{}/{}/{}.html",
            r.pick(HOSTS),
            segment(r),
            segment(r)
        ),
    }
}

/// A link target in a page: a URL, or a relative one.
fn href(r: &mut Rng) -> String {
    match r.below(6) {
        0 => format!("../{}/{}.html", segment(r), segment(r)),
        1 => format!("#sec-{}", r.below(30)),
        2 => format!("{}.html?lang=de&amp;v={}", segment(r), r.below(9)),
        _ => url(r).replace('&', "&amp;"),
    }
}

fn html_page(r: &mut Rng, n: usize) -> String {
    let foreign = n.is_multiple_of(3);
    let mut p = String::new();
    let title = sentence(r, foreign);
    write!(
        p,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"DocBook XSL Stylesheets V1.79.2\">\n\
         <title>{title}</title>\n\
         <link rel=\"stylesheet\" type=\"text/css\" href=\"../static/style-{n}.css\">\n\
         <link rel=\"icon\" href=\"/favicon.ico\">\n\
         <script src=\"../static/main.js\" defer></script>\n\
         <style>body {{ margin: 0 }} .nav a {{ color: #333 }} pre {{ padding: 1em }}</style>\n\
         </head>\n<body class=\"book\">\n<div class=\"navheader\"><table width=\"100%\" summary=\"Navigation header\"><tr>\
         <th colspan=\"3\" align=\"center\">{title}</th></tr><tr><td width=\"20%\" align=\"left\">\
         <a accesskey=\"p\" href=\"ch{}.html\">Prev</a> </td><th width=\"60%\" align=\"center\"> </th>\
         <td width=\"20%\" align=\"right\"> <a accesskey=\"n\" href=\"ch{}.html\">Next</a></td></tr></table><hr></div>\n\
         <nav class=\"toc\"><ul>\n",
        n.saturating_sub(1),
        n + 1
    )
    .unwrap();
    for i in 0..10 + r.below(20) {
        writeln!(
            p,
            "<li><span class=\"section\"><a href=\"#sec-{i}\" title=\"{}\">{}</a></span></li>",
            segment(r),
            sentence(r, foreign)
        )
        .unwrap();
    }
    p.push_str("</ul></nav>\n<main id=\"content\">\n");
    for i in 0..8 + r.below(10) {
        writeln!(
            p,
            "<h2 id=\"sec-{i}\" class=\"title\">{}</h2>",
            sentence(r, foreign)
        )
        .unwrap();
        for _ in 0..2 + r.below(4) {
            p.push_str("<p>");
            for _ in 0..2 + r.below(5) {
                p.push_str(&sentence(r, foreign));
                match r.below(7) {
                    0 => write!(
                        p,
                        " <a class=\"ulink\" href=\"{}\" target=\"_top\">{}</a>",
                        href(r),
                        segment(r)
                    )
                    .unwrap(),
                    1 => write!(p, " <code class=\"literal\">{}</code>", segment(r)).unwrap(),
                    2 => write!(
                        p,
                        " <em>{}</em> &amp; <strong>{}</strong>",
                        segment(r),
                        segment(r)
                    )
                    .unwrap(),
                    3 => write!(p, " (see {})", url(r)).unwrap(),
                    _ => {}
                }
                p.push(' ');
            }
            p.push_str("</p>\n");
        }
        match r.below(4) {
            0 => writeln!(
                p,
                "<pre class=\"programlisting\"><code class=\"language-sh\">$ apt-get install {}\n$ {} --config /etc/{}.conf &lt;{}&gt;</code></pre>",
                segment(r), segment(r), segment(r), url(r)
            )
            .unwrap(),
            1 => {
                p.push_str("<table class=\"informaltable\" border=\"1\"><colgroup><col><col></colgroup><tbody>\n");
                for _ in 0..3 + r.below(6) {
                    writeln!(
                        p,
                        "<tr><td><a href=\"{}\">{}</a></td><td>{}</td></tr>",
                        href(r),
                        segment(r),
                        sentence(r, foreign)
                    )
                    .unwrap();
                }
                p.push_str("</tbody></table>\n");
            }
            2 => writeln!(
                p,
                "<div class=\"figure\"><img src=\"images/{0}.png\" srcset=\"images/{0}@2x.png 2x, images/{0}@3x.png 3x\" alt=\"{1}\" width=\"400\" height=\"300\"></div>\n<!-- {1} -->",
                segment(r),
                sentence(r, foreign)
            )
            .unwrap(),
            _ => {}
        }
    }
    p.push_str(
        "</main>\n<footer><p>&copy; 2026 <a href=\"mailto:debian-doc@lists.debian.org\">Debian Documentation Project</a>\
         </p></footer>\n<script>var shown = 1 < 2 && \"</p>\"; document.body.className += \" js\";</script>\n</body>\n</html>\n",
    );
    p
}

fn svg(r: &mut Rng, n: usize) -> String {
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
         xmlns:inkscape=\"http://www.inkscape.org/namespaces/inkscape\" \
         xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns:cc=\"http://creativecommons.org/ns#\" \
         xmlns:dc=\"http://purl.org/dc/elements/1.1/\" width=\"48\" height=\"48\" viewBox=\"0 0 48 48\" version=\"1.1\" id=\"svg{n}\">\n\
         <title>{}</title>\n<metadata><rdf:RDF><cc:Work rdf:about=\"\"><dc:format>image/svg+xml</dc:format>\
         <dc:type rdf:resource=\"http://purl.org/dc/dcmitype/StillImage\"/>\
         <cc:license rdf:resource=\"http://creativecommons.org/licenses/by-sa/4.0/\"/></cc:Work></rdf:RDF></metadata>\n<defs>\n",
        segment(r)
    );
    for g in 0..1 + r.below(4) {
        writeln!(
            s,
            "<linearGradient id=\"g{g}\"><stop offset=\"0\" style=\"stop-color:#3465a4;stop-opacity:1\"/>\
             <stop offset=\"1\" style=\"stop-color:#204a87;stop-opacity:0\"/></linearGradient>\
             <linearGradient xlink:href=\"#g{g}\" id=\"h{g}\" x1=\"{}\" y1=\"4\" x2=\"{}\" y2=\"44\" gradientUnits=\"userSpaceOnUse\"/>",
            r.below(48),
            r.below(48)
        )
        .unwrap();
    }
    s.push_str(
        "</defs>\n<g inkscape:label=\"Layer 1\" inkscape:groupmode=\"layer\" id=\"layer1\">\n",
    );
    for k in 0..3 + r.below(12) {
        write!(
            s,
            "<path id=\"path{k}\" style=\"fill:url(#h0);stroke:#204a87;stroke-width:1\" d=\"M "
        )
        .unwrap();
        for _ in 0..6 + r.below(20) {
            write!(
                s,
                "{}.{},{}.{} ",
                r.below(48),
                r.below(10),
                r.below(48),
                r.below(10)
            )
            .unwrap();
        }
        s.push_str("z\"/>\n");
    }
    if r.chance(50) {
        writeln!(
            s,
            "<a xlink:href=\"{}\"><text x=\"4\" y=\"40\">{}</text></a>",
            url(r),
            segment(r)
        )
        .unwrap();
    }
    s.push_str("</g>\n</svg>\n");
    s
}

fn mallard(r: &mut Rng, n: usize) -> String {
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
         <page xmlns=\"http://projectmallard.org/1.0/\" xmlns:its=\"http://www.w3.org/2005/11/its\" type=\"topic\" id=\"topic-{n}\">\n\
         <info>\n<link type=\"guide\" xref=\"index#{}\"/>\n<revision pkgversion=\"3.{}\" date=\"2026-01-0{}\" status=\"final\"/>\n\
         <credit type=\"author\"><name>{}</name><email its:translate=\"no\">docs@example.org</email></credit>\n\
         <license href=\"http://creativecommons.org/licenses/by-sa/3.0/\"><p>Creative Commons Share Alike 3.0</p></license>\n\
         </info>\n<title>{}</title>\n",
        segment(r),
        r.below(40),
        1 + r.below(9),
        segment(r),
        sentence(r, true)
    );
    for _ in 0..20 + r.below(30) {
        s.push_str("<p>");
        for _ in 0..1 + r.below(4) {
            s.push_str(&sentence(r, n.is_multiple_of(2)));
            if r.chance(40) {
                write!(
                    s,
                    " <link href=\"{}\">{}</link>",
                    url(r).replace('&', "&amp;"),
                    segment(r)
                )
                .unwrap();
            }
            if r.chance(20) {
                write!(
                    s,
                    " <link xref=\"{}\"/> &amp; <gui>{}</gui>",
                    segment(r),
                    segment(r)
                )
                .unwrap();
            }
            s.push(' ');
        }
        s.push_str("</p>\n");
    }
    s.push_str("</page>\n");
    s
}

fn readme(r: &mut Rng, n: usize) -> String {
    let mut s = format!("# {}\n\n", segment(r));
    writeln!(
        s,
        "[![Build](https://github.com/o/{0}/actions/workflows/ci.yml/badge.svg)](https://github.com/o/{0}/actions) \
         [![Crates.io](https://img.shields.io/crates/v/{0}.svg)](https://crates.io/crates/{0})\n",
        segment(r)
    )
    .unwrap();
    for _ in 0..4 + r.below(6) {
        writeln!(s, "## {}\n", sentence(r, n.is_multiple_of(4))).unwrap();
        for _ in 0..1 + r.below(3) {
            for _ in 0..2 + r.below(4) {
                s.push_str(&sentence(r, n.is_multiple_of(4)));
                match r.below(8) {
                    0 => write!(s, " See [{}]({}).", segment(r), url(r)).unwrap(),
                    1 => write!(s, " Run `{} --{}` first.", segment(r), segment(r)).unwrap(),
                    2 => write!(s, " *{}* and **{}**.", segment(r), segment(r)).unwrap(),
                    3 => write!(s, " <{}>", url(r)).unwrap(),
                    4 => write!(s, " Also {} works.", url(r)).unwrap(),
                    5 => write!(s, " [{}][{}]", segment(r), r.below(5)).unwrap(),
                    _ => {}
                }
                s.push(if r.chance(30) { '\n' } else { ' ' });
            }
            s.push_str("\n\n");
        }
        match r.below(4) {
            0 => writeln!(
                s,
                "```sh\ncargo install {}\n{} --help\n```\n",
                segment(r),
                segment(r)
            )
            .unwrap(),
            1 => {
                for _ in 0..2 + r.below(5) {
                    writeln!(
                        s,
                        "- [{}]({}): {}",
                        segment(r),
                        href_md(r),
                        sentence(r, false)
                    )
                    .unwrap();
                }
                s.push('\n');
            }
            2 => {
                s.push_str("| option | default | meaning |\n|---|---|---|\n");
                for _ in 0..2 + r.below(5) {
                    writeln!(
                        s,
                        "| `{}` | {} | {} |",
                        segment(r),
                        r.below(100),
                        sentence(r, false)
                    )
                    .unwrap();
                }
                s.push('\n');
            }
            _ => writeln!(
                s,
                "<img src=\"{}\" alt=\"{}\" width=\"600\">\n",
                url(r),
                segment(r)
            )
            .unwrap(),
        }
    }
    for k in 0..5 {
        writeln!(s, "[{k}]: {}", url(r)).unwrap();
    }
    s
}

fn href_md(r: &mut Rng) -> String {
    if r.chance(50) {
        format!("docs/{}.md#{}", segment(r), segment(r))
    } else {
        url(r)
    }
}

/// A changelog of many short entries with links and code: markup on most lines, so that its
/// estimated parse cost puts it over the chunk budget.
fn changelog(r: &mut Rng) -> String {
    let mut s = String::from("# Changelog\n\nAll notable changes are listed here.\n\n");
    let mut version = 0;
    while s.len() < 1_000_000 {
        version += 1;
        writeln!(
            s,
            "## [0.{version}.0] - 2026-{:02}-{:02}\n",
            1 + r.below(12),
            1 + r.below(28)
        )
        .unwrap();
        writeln!(s, "### {}\n", r.pick(&["Added", "Fixed", "Changed"])).unwrap();
        for _ in 0..5 + r.below(15) {
            let pr = 1000 + r.below(9000);
            writeln!(
                s,
                "- {} `{}` ([#{pr}](https://github.com/o/r/pull/{pr}), @{})",
                sentence(r, false),
                segment(r),
                segment(r)
            )
            .unwrap();
            if r.chance(20) {
                writeln!(s, "  - *{}*: {}", segment(r), url(r)).unwrap();
            }
        }
        s.push('\n');
        if r.chance(30) {
            writeln!(s, "{}\n", sentence(r, false)).unwrap();
        }
    }
    s
}

fn notes(r: &mut Rng, n: usize) -> String {
    let mut s = format!("{}\n{}\n\n", segment(r).to_uppercase(), "=".repeat(20));
    for _ in 0..60 + r.below(80) {
        for _ in 0..1 + r.below(5) {
            s.push_str(&sentence(r, n.is_multiple_of(3)));
            match r.below(6) {
                0 => write!(s, " {}", url(r)).unwrap(),
                1 => write!(s, " (www.{}.org/{})", segment(r), segment(r)).unwrap(),
                2 => write!(s, " <{}@lists.debian.org>", segment(r)).unwrap(),
                3 => write!(s, " /usr/share/doc/{}/README.gz", segment(r)).unwrap(),
                _ => {}
            }
            s.push(if r.chance(50) { '\n' } else { ' ' });
        }
        s.push_str("\n\n");
    }
    s
}

/// Cyrillic letters that look like Latin ones: a, e, o, p, c, x, y, i.
fn cyrillic_look_alike(word: &str) -> String {
    word.chars()
        .map(|c| match c {
            'a' => 'а',
            'e' => 'е',
            'o' => 'о',
            'p' => 'р',
            'c' => 'с',
            'x' => 'х',
            'y' => 'у',
            'i' => 'і',
            c => c,
        })
        .collect()
}

/// Text whose IRIs are mostly IDN hosts: accented Latin names, Cyrillic look-alikes of Latin
/// names (whole and mixed), and some ASCII.
fn idn_text(r: &mut Rng) -> String {
    const ACCENTED: &[&str] = &[
        "é", "è", "à", "ü", "ö", "ç", "ñ", "â", "ê", "î", "ô", "û", "ä", "ë", "ø", "å",
    ];
    const NAMES: &[&str] = &[
        "apple",
        "paypal",
        "google",
        "microsoft",
        "amazon",
        "github",
        "debian",
        "openssl",
        "example",
        "access",
        "coppercoin",
        "pixel",
    ];
    const TLDS: &[&str] = &["com", "org", "net", "de", "fr", "ru", "xn--p1ai"];
    let mut s = String::new();
    for k in 0..9000 {
        let host = match k % 4 {
            0 => {
                let mut h = String::new();
                for _ in 0..5 + r.below(8) {
                    if r.chance(50) {
                        h.push_str(r.pick(ACCENTED));
                    } else {
                        h.push_str(r.pick(&["a", "b", "c", "d", "l", "m", "n", "r", "s", "t"]));
                    }
                }
                h
            }
            1 => cyrillic_look_alike(r.pick(NAMES)),
            2 => {
                // One letter swapped: a mixed-script label.
                let name = r.pick(NAMES);
                let at = r.below(name.len());
                format!("{}{}", &name[..at], cyrillic_look_alike(&name[at..]))
            }
            _ => format!("{}-{}", r.pick(NAMES), segment(r)),
        };
        let tld = r.pick(TLDS);
        match r.below(3) {
            0 => writeln!(s, "see https://{host}.{tld}/p").unwrap(),
            1 => writeln!(
                s,
                "{} https://www.{host}.{tld}/{}?id={}",
                sentence(r, false),
                segment(r),
                r.below(999)
            )
            .unwrap(),
            _ => writeln!(s, "mail me at http://{host}.{tld}/ or read {}", segment(r)).unwrap(),
        }
    }
    s
}

/// Writes every format's files under `dir/FORMAT/`.
fn write_inputs(dir: &Path) {
    let mut r = Rng(0x1d1_5eed_2026_0043);
    let _ = std::fs::remove_dir_all(dir);
    let put = |path: PathBuf, text: String| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    for n in 0..60 {
        put(
            dir.join(format!("html/ch{n:02}.html")),
            html_page(&mut r, n),
        );
    }
    for n in 0..150 {
        put(
            dir.join(format!("xml/icons/icon-{n:03}.svg")),
            svg(&mut r, n),
        );
    }
    for n in 0..25 {
        put(
            dir.join(format!("xml/help/topic-{n:02}.page")),
            mallard(&mut r, n),
        );
    }
    for n in 0..50 {
        put(
            dir.join(format!("markdown/crate-{n:02}/README.md")),
            readme(&mut r, n),
        );
    }
    let log = changelog(&mut r);
    // Over the chunk budget (src/extract/markdown/chunks.rs, `CHUNK_COST`, 32 MiB): read in
    // chunks, as the largest real documents are.
    let cost = irilint::extract::markdown::chunk_cost(&log);
    assert!(cost > 32 << 20, "{cost} for {} bytes", log.len());
    put(dir.join("markdown/CHANGELOG.md"), log);
    for n in 0..40 {
        put(dir.join(format!("text/notes-{n:02}.txt")), notes(&mut r, n));
    }
    put(dir.join("idn/hosts.txt"), idn_text(&mut r));
}
