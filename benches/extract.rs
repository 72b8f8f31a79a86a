//! Extraction throughput per format, single thread, next to the bare parse of the same crate on
//! the same files (html5ever's tokenizer with an empty sink, quick-xml's reader, pulldown-cmark's
//! offset iterator, a whitespace split for plain text, reStructuredText and AsciiDoc), and how
//! many IRIs per MB each yields.
//!
//! `cargo bench --bench extract` measures `fixtures/`; point `IRILINT_BENCH_CORPUS` at a larger
//! tree (a documentation site) for meaningful numbers. Files are read and decoded before timing.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{BufferQueue, Token, TokenSink, TokenSinkResult, Tokenizer};
use irilint::extract;
use irilint::source::{Format, Source};

const ROUNDS: usize = 5;

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        // Symlinks are not followed, as `irilint check` does not follow them.
        let Ok(kind) = e.file_type() else { continue };
        if kind.is_dir() {
            files(&p, out);
        } else if kind.is_file() && !p.to_string_lossy().ends_with(".expected.json") {
            out.push(p);
        }
    }
}

struct EmptySink;

impl TokenSink for EmptySink {
    type Handle = ();
    fn process_token(&self, _token: Token, _line: u64) -> TokenSinkResult<()> {
        TokenSinkResult::Continue
    }
}

fn bare_parse(format: Format, text: &str) -> usize {
    match format {
        Format::Html => {
            let tokenizer = Tokenizer::new(EmptySink, Default::default());
            let input = BufferQueue::default();
            input.push_back(StrTendril::from_slice(text));
            let _ = tokenizer.feed(&input);
            tokenizer.end();
            0
        }
        Format::Xml => {
            let mut reader = quick_xml::Reader::from_str(text);
            let mut n = 0;
            loop {
                match reader.read_event() {
                    Ok(quick_xml::events::Event::Eof) | Err(_) => break n,
                    Ok(_) => n += 1,
                }
            }
        }
        Format::Markdown => pulldown_cmark::Parser::new_ext(text, extract::markdown::options())
            .into_offset_iter()
            .count(),
        // No parser crate for these: the same baseline as plain text.
        Format::Text
        | Format::Rst
        | Format::Asciidoc
        | Format::Epub
        | Format::OpenDocument
        | Format::Ooxml
        | Format::Pdf => text.split_whitespace().count(),
    }
}

fn median(mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..ROUNDS)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[ROUNDS / 2]
}

fn main() {
    if std::env::args().any(|a| a == "--test") {
        return;
    }
    let root = std::env::var_os("IRILINT_BENCH_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("fixtures"));
    let mut paths = Vec::new();
    files(&root, &mut paths);
    paths.sort();
    println!("corpus: {} ({} files)", root.display(), paths.len());
    println!(
        "{:<9} {:>6} {:>9} {:>13} {:>13} {:>9} {:>9}",
        "format", "files", "MB", "extract MB/s", "bare MB/s", "IRIs", "IRIs/MB"
    );
    for format in Format::ALL {
        let sources: Vec<Source> = paths
            .iter()
            .filter_map(|p| {
                let bytes = std::fs::read(p).ok()?;
                (Format::for_file(p, &bytes)? == format)
                    .then(|| Source::decode(p.display().to_string(), format, &bytes).ok())
                    .flatten()
            })
            .collect();
        if sources.is_empty() {
            continue;
        }
        let bytes: usize = sources.iter().map(|s| s.text.len()).sum();
        let mb = bytes as f64 / 1e6;
        let iris: usize = sources
            .iter()
            .map(|s| extract::extract(s).occurrences.len())
            .sum();
        let extract_time = median(|| {
            for s in &sources {
                black_box(extract::extract(black_box(s)));
            }
        });
        let bare_time = median(|| {
            for s in &sources {
                black_box(bare_parse(format, black_box(&s.text)));
            }
        });
        println!(
            "{:<9} {:>6} {:>9.2} {:>13.1} {:>13.1} {:>9} {:>9.0}",
            format.name(),
            sources.len(),
            mb,
            mb / extract_time.as_secs_f64(),
            mb / bare_time.as_secs_f64(),
            iris,
            iris as f64 / mb
        );
    }
}
