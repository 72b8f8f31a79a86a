//! Throughput of the RFC 3987 parser, the rule engine and the plain-text extractor on 100,000
//! generated IRIs (about half of them with non-ASCII characters).
//!
//! Run with `cargo bench --bench parse`. Prints the median and best of several rounds.

use std::hint::black_box;
use std::time::{Duration, Instant};

use irilint::extract::text;
use irilint::iri;
use irilint::rules::{self, Check, Selection};

const COUNT: usize = 100_000;
const ROUNDS: usize = 9;

/// A small deterministic generator (xorshift), so every run measures the same input.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

fn generate() -> Vec<String> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let schemes = ["http", "https", "https", "https", "ftp", "wss"];
    let ascii_hosts = [
        "example.com",
        "docs.example.org",
        "www.rfc-editor.org",
        "cdn.example.net:8080",
        "[2001:db8::7]",
        "192.0.2.15",
        "user@mail.example.com",
    ];
    let unicode_hosts = [
        "例え.テスト",
        "пример.рф",
        "مثال.إختبار",
        "παράδειγμα.δοκιμή",
        "bücher.example",
    ];
    let ascii_segments = [
        "docs",
        "guide",
        "v2",
        "api",
        "users",
        "index.html",
        "a%20b",
        "~user",
        "2024",
    ];
    let unicode_segments = [
        "ページ",
        "документы",
        "صفحة",
        "Übersicht",
        "説明書",
        "résumé",
        "עמוד",
        "%E2%82%AC",
    ];
    let queries = [
        "",
        "?q=1",
        "?lang=ja&page=2",
        "?q=東京タワー",
        "?s=поиск;t=1",
        "?utm_source=x&utm_medium=y",
    ];
    let fragments = ["", "", "#top", "#概要", "#section-3"];
    (0..COUNT)
        .map(|i| {
            let unicode = i % 5 < 2;
            let mut s = String::new();
            s.push_str(rng.pick(&schemes));
            s.push_str("://");
            s.push_str(if unicode && rng.next().is_multiple_of(2) {
                rng.pick(&unicode_hosts)
            } else {
                rng.pick(&ascii_hosts)
            });
            for _ in 0..(1 + rng.next() % 4) {
                s.push('/');
                s.push_str(if unicode {
                    rng.pick(&unicode_segments)
                } else {
                    rng.pick(&ascii_segments)
                });
            }
            let q = rng.pick(&queries);
            if unicode || q.is_ascii() {
                s.push_str(q);
            }
            s.push_str(rng.pick(&fragments));
            s
        })
        .collect()
}

/// Median and best duration of `ROUNDS` runs of `f`.
fn time(mut f: impl FnMut()) -> (Duration, Duration) {
    let mut times: Vec<Duration> = (0..ROUNDS)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    (times[ROUNDS / 2], times[0])
}

fn report(what: &str, bytes: usize, items: usize, (median, best): (Duration, Duration)) {
    let mb = bytes as f64 / 1e6;
    println!(
        "{what:<34} median {:>8.2} ms  {:>8.1} MB/s  {:>11.0} IRIs/s   (best {:.2} ms)",
        median.as_secs_f64() * 1e3,
        mb / median.as_secs_f64(),
        items as f64 / median.as_secs_f64(),
        best.as_secs_f64() * 1e3,
    );
}

fn main() {
    // `cargo test --benches` runs bench targets with `--bench`-less args; keep that cheap.
    if std::env::args().any(|a| a == "--test") {
        return;
    }
    let iris = generate();
    let bytes: usize = iris.iter().map(String::len).sum();
    let non_ascii = iris.iter().filter(|s| !s.is_ascii()).count();
    let ascii: Vec<&String> = iris.iter().filter(|s| s.is_ascii()).collect();
    let ascii_bytes: usize = ascii.iter().map(|s| s.len()).sum();
    println!(
        "{COUNT} IRIs, {:.2} MB, {non_ascii} with non-ASCII characters, average {} bytes; {ROUNDS} rounds",
        bytes as f64 / 1e6,
        bytes / COUNT
    );
    let invalid = iris.iter().filter(|s| iri::parse(s).is_err()).count();
    assert_eq!(invalid, 0, "the generated IRIs are all valid");

    report(
        "iri::parse (all)",
        bytes,
        COUNT,
        time(|| {
            for s in &iris {
                black_box(iri::parse(black_box(s)).is_ok());
            }
        }),
    );
    report(
        "iri::parse (ASCII only)",
        ascii_bytes,
        ascii.len(),
        time(|| {
            for s in &ascii {
                black_box(iri::parse(black_box(s)).is_ok());
            }
        }),
    );
    let selection = Selection::default();
    report(
        "parse + default rules",
        bytes,
        COUNT,
        time(|| {
            for s in &iris {
                black_box(rules::check(black_box(s), &selection));
            }
        }),
    );
    let all = Selection::all();
    let non_ascii: Vec<&String> = iris.iter().filter(|s| !s.is_ascii()).collect();
    let non_ascii_bytes: usize = non_ascii.iter().map(|s| s.len()).sum();
    report(
        "parse only (non-ASCII IRIs)",
        non_ascii_bytes,
        non_ascii.len(),
        time(|| {
            for s in &non_ascii {
                black_box(iri::parse(black_box(s)).is_ok());
            }
        }),
    );
    report(
        "parse + all rules (non-ASCII IRIs)",
        non_ascii_bytes,
        non_ascii.len(),
        time(|| {
            for s in &non_ascii {
                black_box(rules::check(black_box(s), &all));
            }
        }),
    );
    report(
        "parse + all rules",
        bytes,
        COUNT,
        time(|| {
            for s in &iris {
                black_box(rules::check(black_box(s), &all));
            }
        }),
    );
    println!("per rule, on the non-ASCII IRIs (parse included):");
    // Document, extractor and project rules have no per-IRI check: their row would be the parse.
    for rule in rules::RULES
        .iter()
        .filter(|r| matches!(r.check, Check::Iri(_)))
    {
        let one = Selection::from_selectors(&[rule.id], &[], &[]).expect("a rule id");
        let (median, _) = time(|| {
            for s in &non_ascii {
                black_box(rules::check(black_box(s), &one));
            }
        });
        println!(
            "  {:<32} {:>7.2} µs/IRI",
            rule.id,
            median.as_secs_f64() * 1e6 / non_ascii.len() as f64
        );
    }
    let document: String = iris
        .iter()
        .map(|s| format!("See {s} for details.\n"))
        .collect();
    report(
        "text::extract (prose around IRIs)",
        document.len(),
        COUNT,
        time(|| {
            black_box(text::extract(black_box(&document)));
        }),
    );
}
