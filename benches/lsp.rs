//! The language server's latency as an editor feels it: from `didChange` to the
//! `publishDiagnostics` of that version, for a 1 MB and a 10 MB HTML document (real-looking
//! pages with links, a hidden U+202E in each), whole process, release build. The time includes
//! the server's pause for typing (`irilint::lsp::DEBOUNCE`), reported separately.
//!
//! `cargo bench --bench lsp`

#[path = "../tests/lsp_client/mod.rs"]
mod lsp_client;

use std::time::{Duration, Instant};

use serde_json::json;

use lsp_client::Client;

const EDITS: usize = 7;

fn page(bytes: usize) -> String {
    let mut out = String::from("<!DOCTYPE html>\n<html><body>\n");
    let mut i = 0;
    while out.len() < bytes {
        out.push_str(&format!(
            "<p>Section {i}: see <a href=\"https://example.org/docs/page-{i}.html#part\">the page</a>, \
             <a href=\"https://例え.テスト/ページ/{i}\">例え</a> and <img src=\"/img/{i}.png\" alt=\"\"></p>\n"
        ));
        i += 1;
    }
    out.push_str("<a href=\"https://example.org/\u{202E}gpj.exe\">x</a>\n</body></html>\n");
    out
}

fn main() {
    let dir = std::env::temp_dir();
    println!(
        "didChange → publishDiagnostics (median of {EDITS} edits; debounce {} ms included)",
        irilint::lsp::DEBOUNCE.as_millis()
    );
    for size in [1 << 20, 10 << 20] {
        let text = page(size);
        let (mut c, _) = Client::start_with(env!("CARGO_BIN_EXE_irilint"), json!({}), &dir);
        let uri = "file:///tmp/irilint-bench/page.html";
        let opened = Instant::now();
        c.open(uri, "html", &text);
        let first = c.published(uri);
        let open_time = opened.elapsed();
        assert_eq!(first["diagnostics"].as_array().map(Vec::len), Some(1));
        let mut times: Vec<Duration> = Vec::new();
        for v in 0..EDITS {
            let version = 2 + v as i64;
            // One character typed at the end of a line in the middle.
            let mut edited = text.clone();
            let at = edited[edited.len() / 2..].find('\n').unwrap() + edited.len() / 2;
            edited.insert(at, 'x');
            let start = Instant::now();
            c.change(uri, version, &edited);
            let p = c.published(uri);
            times.push(start.elapsed());
            assert_eq!(p["version"], version);
        }
        times.sort();
        let median = times[times.len() / 2];
        println!(
            "{:>3} MB HTML: open {:>6.0} ms; change {:>6.0} ms median (best {:.0}, worst {:.0}), {:.0} ms after the debounce",
            size >> 20,
            open_time.as_secs_f64() * 1e3,
            median.as_secs_f64() * 1e3,
            times[0].as_secs_f64() * 1e3,
            times[times.len() - 1].as_secs_f64() * 1e3,
            (median.saturating_sub(irilint::lsp::DEBOUNCE)).as_secs_f64() * 1e3,
        );
        assert_eq!(c.shutdown(), 0);
    }
}
