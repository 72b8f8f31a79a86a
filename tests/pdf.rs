//! PDF end to end: the fixtures of `fixtures/packages/*.pdf` (built by
//! `scripts/make-pdf-fixtures.py`, their findings checked by hand) located at the link's page
//! and object in every report, the baseline and `--fix`; and hostile PDFs (a flate bomb, many
//! objects, deep nesting, loops, truncated files) read or refused within their bounds, never a
//! panic.

mod common;

use std::time::{Duration, Instant};

use common::cli::{irilint, run};
use common::pdf::{link, page, page_tree, pdf, pdf_with_streams, uri};
use irilint::extract::pdf::{NotRead, each_link_source};
use serde_json::Value;

/// The rule id and location of each finding of `concise` output.
fn located(out: &str) -> Vec<String> {
    out.lines()
        .map(|l| {
            let (place, rest) = l.split_once(": ").unwrap();
            let rule = rest.split(['[', ']']).nth(1).unwrap();
            format!("{place} {rule}")
        })
        .collect()
}

/// (label, text) of each link read from `bytes`, and how reading ended.
fn links_of(bytes: &[u8]) -> (Vec<(String, String)>, Result<(), NotRead>) {
    let mut links = Vec::new();
    let read = each_link_source("t.pdf", bytes, &mut |s| {
        links.push((s.path.trim_start_matches("t.pdf!").to_string(), s.text))
    });
    (links, read)
}

const LINKS: &str = "fixtures/packages/links.pdf";

/// `bytes` with the first `from` replaced by `to`.
fn replaced(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let at = memchr::memmem::find(bytes, from).expect("found");
    let mut out = bytes[..at].to_vec();
    out.extend(to);
    out.extend(&bytes[at + from.len()..]);
    out
}

#[test]
fn each_fixture_is_read_with_findings_located_at_page_and_object() {
    // Checked by hand against scripts/make-pdf-fixtures.py: `https://` is 8 characters, so the
    // look-alike `а` of obj 5 is at column 9; U+202E after `https://example.org/` (20) at 21;
    // U+200B after `https://example.` (16) at 17; `https://ex` (10) before the update's `а`.
    let cases: [(&str, &[&str]); 4] = [
        (
            LINKS,
            &[
                "!page 1 obj 5:1:9 lookalike-domain",
                "!page 2 obj 4 annot 1:1:21 bidi-formatting-character",
            ],
        ),
        (
            "fixtures/packages/compressed.pdf",
            &["!page 1 obj 5:1:17 invisible-character"],
        ),
        (
            "fixtures/packages/updated.pdf",
            &["!page 1 obj 4:1:11 confusable"],
        ),
        (
            "fixtures/packages/actions.pdf",
            &[
                "!page 1 obj 4:1:1 pdf-unsafe-action",
                "!page 1 obj 5:1:1 pdf-unsafe-action",
                "!page 1 obj 6:1:1 pdf-unsafe-action",
                "!page 1 obj 7 next 1:1:1 pdf-unsafe-action",
            ],
        ),
    ];
    for (path, want) in cases {
        let (code, out, err) = run(&["check", "--format", "concise", "--quiet", path]);
        assert_eq!(code, 1, "{path}: {err}");
        let want: Vec<String> = want.iter().map(|w| format!("{path}{w}")).collect();
        assert_eq!(located(&out), want, "{path}");
    }
    // What each link holds, escapes and encodings resolved; the /Dest link has no action, and
    // the updated action's old IRI is not read.
    let (links, read) = links_of(&std::fs::read(LINKS).unwrap());
    assert!(read.is_ok());
    assert_eq!(
        links,
        [
            ("page 1 obj 5", "https://\u{430}pple.com/login"),
            ("page 1 obj 6", "https://example.org/a(b)c"),
            (
                "page 2 obj 4 annot 1",
                "https://example.org/\u{202E}gnp.exe"
            ),
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    let (links, _) = links_of(&std::fs::read("fixtures/packages/updated.pdf").unwrap());
    assert_eq!(links.len(), 1);
    assert_eq!(links[0].1, "https://ex\u{430}mple.org/new");
    let (links, _) = links_of(&std::fs::read("fixtures/packages/compressed.pdf").unwrap());
    assert_eq!(links.len(), 2, "{links:?}");
}

#[test]
fn the_cross_reference_stream_is_read_not_rebuilt_by_a_scan() {
    let bytes = std::fs::read("fixtures/packages/compressed.pdf").unwrap();
    let pdf = irilint::extract::pdf::Pdf::open(
        &bytes,
        irilint::extract::pdf::Limits::for_len(bytes.len()),
    )
    .unwrap();
    assert!(!pdf.scanned);
    // Without `startxref`, the objects are found by a scan, object streams included.
    let cut = memchr::memmem::rfind(&bytes, b"startxref").unwrap();
    let pdf = irilint::extract::pdf::Pdf::open(
        &bytes[..cut],
        irilint::extract::pdf::Limits::for_len(cut),
    )
    .unwrap();
    assert!(pdf.scanned);
    let (links, read) = links_of(&bytes[..cut]);
    assert!(read.is_ok());
    assert_eq!(links.len(), 2, "{links:?}");
}

#[test]
fn the_link_is_the_path_in_json_sarif_and_the_baseline() {
    let out = irilint()
        .args(["check", "--format", "json", LINKS])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = &report["diagnostics"][0];
    assert_eq!(d["path"], format!("{LINKS}!page 1 obj 5"));
    assert_eq!(d["span"]["start"]["line"], 1);
    assert_eq!(d["span"]["start"]["column"], 9);
    let out = irilint()
        .args(["check", "--format", "sarif", LINKS])
        .output()
        .unwrap();
    let sarif = String::from_utf8(out.stdout).unwrap();
    // A SARIF location is a URI: its spaces percent-encoded.
    assert!(
        sarif.contains("links.pdf!page%202%20obj%204%20annot%201"),
        "{sarif}"
    );
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("baseline.json");
    let baseline = baseline.to_str().unwrap();
    let (code, _, err) = run(&["check", "--write-baseline", baseline, LINKS]);
    assert_eq!(code, 0, "{err}");
    let written = std::fs::read_to_string(baseline).unwrap();
    assert!(written.contains("links.pdf!page 1 obj 5"), "{written}");
    let (code, out, err) = run(&[
        "check",
        "--format",
        "concise",
        "--baseline",
        baseline,
        LINKS,
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn a_pdf_is_known_by_its_first_bytes_and_listed() {
    let dir = tempfile::tempdir().unwrap();
    let bare = dir.path().join("links.bin");
    std::fs::copy(LINKS, &bare).unwrap();
    let bare = bare.to_str().unwrap();
    let (code, out, _) = run(&["check", "--format", "concise", "--quiet", bare]);
    assert_eq!(code, 1);
    assert!(out.contains("links.bin!page 1 obj 5:1:9"), "{out}");
    // Asked to read it as text, it is text.
    let (_, out, _) = run(&[
        "check",
        "--format",
        "concise",
        "--input-format",
        "text",
        bare,
    ]);
    assert!(!out.contains("!page"), "{out}");
    let (code, out, err) = run(&["list", LINKS]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!(
            "{LINKS}!page 1 obj 6:1:1: https://example.org/a(b)c (pdf:URI)"
        )),
        "{out}"
    );
    // Found when walking a directory.
    let (_, out, _) = run(&["check", "--format", "concise", "fixtures/packages"]);
    assert!(out.contains("actions.pdf!page 1 obj 4:1:1"), "{out}");
}

#[test]
fn fix_does_not_write_into_a_pdf_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("compressed.pdf");
    std::fs::copy("fixtures/packages/compressed.pdf", &copy).unwrap();
    let before = std::fs::read(&copy).unwrap();
    let copy = copy.to_str().unwrap();
    for mode in ["--fix", "--diff"] {
        let (code, out, err) = run(&["check", mode, "--unsafe-fixes", copy]);
        assert_ne!(code, 2, "{err}");
        assert!(err.contains("a PDF is objects"), "{mode}: {err}");
        assert!(!out.contains("+++"), "no patch of a link: {out}");
    }
    assert_eq!(std::fs::read(copy).unwrap(), before);
}

#[test]
fn an_encrypted_pdf_is_skipped_with_a_note() {
    let mut objects = page_tree(1);
    objects.push((3, page("[4 0 R]")));
    objects.push((4, link(&uri("https://example.org/"))));
    objects.push((5, b"<< /Filter /Standard /V 2 /R 3 >>".to_vec()));
    let bytes = pdf(&objects, "/Encrypt 5 0 R");
    assert_eq!(links_of(&bytes).1, Err(NotRead::Encrypted));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("secret.pdf");
    std::fs::write(&path, &bytes).unwrap();
    let (code, out, err) = run(&["check", "--format", "concise", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("encrypted"), "{err}");
}

fn refused(read: &Result<(), NotRead>) -> String {
    match read {
        Err(NotRead::Refused(why)) => why.0.clone(),
        other => panic!("not refused: {other:?}"),
    }
}

#[test]
fn a_flate_bomb_in_an_object_stream_is_refused_within_the_bound() {
    // The annotation sits in an object stream that decodes to 256 MB of spaces after it: the
    // file is a few hundred KB, the stream bound (file + 50 MB) / 4.
    let mut inner = link(&uri("https://example.org/"));
    inner.resize(256 << 20, b' ');
    let mut objects = page_tree(1);
    objects.push((3, page("[4 0 R]")));
    let bytes = pdf_with_streams(&objects, &[(10, vec![(4, inner)])], "");
    assert!(bytes.len() < 1 << 20, "{}", bytes.len());
    let start = Instant::now();
    let (links, read) = links_of(&bytes);
    assert!(refused(&read).contains("flate bomb"), "{read:?}");
    assert!(links.is_empty());
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    // Many object streams each under the bound, read in turn past what is kept decoded: the
    // work bound (100 × the file + 50 MB) ends it.
    let mut objects = page_tree(1);
    let annots: Vec<String> = (0..40).map(|i| format!("{} 0 R", 100 + i)).collect();
    objects.push((3, page(&format!("[{}]", annots.join(" ")))));
    let streams: Vec<(u32, common::pdf::Objects)> = (0..40)
        .map(|i| {
            let mut inner = link(&uri(&format!("https://example.org/{i}")));
            inner.resize(11 << 20, b' ');
            (1000 + i, vec![(100 + i, inner)])
        })
        .collect();
    let bytes = pdf_with_streams(&objects, &streams, "");
    let start = Instant::now();
    let (links, read) = links_of(&bytes);
    assert!(refused(&read).contains("work"), "{read:?}");
    // The links read before the bound stand.
    assert!(!links.is_empty() && links.len() < 40, "{}", links.len());
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn thousands_of_pages_and_objects_are_read_in_linear_time() {
    let mut times = Vec::new();
    for n in [5_000u32, 20_000] {
        let mut objects = page_tree(n);
        for i in 0..n {
            objects.push((3 + i, page(&format!("[{} 0 R]", 3 + n + i))));
        }
        let inner: Vec<(u32, Vec<u8>)> = (0..n)
            .map(|i| (3 + n + i, link(&uri(&format!("https://example.org/{i}")))))
            .collect();
        let bytes = pdf_with_streams(&objects, &[(3 + 2 * n, inner)], "");
        let start = Instant::now();
        let (links, read) = links_of(&bytes);
        times.push(start.elapsed());
        assert!(read.is_ok(), "{read:?}");
        assert_eq!(links.len(), n as usize);
        assert_eq!(
            links[n as usize - 1].0,
            format!("page {n} obj {}", 2 + 2 * n)
        );
    }
    // Four times the pages take about four times as long, not sixteen.
    assert!(
        times[1] < times[0] * 10 + Duration::from_millis(200),
        "{times:?}"
    );
}

#[test]
fn loops_and_shared_objects_end() {
    // /Kids holding its own node, /Annots the page itself, an action whose /Next is itself,
    // an annotation listed twice.
    let mut objects = vec![
        (1, b"<< /Type /Catalog /Pages 2 0 R >>".to_vec()),
        (
            2,
            b"<< /Type /Pages /Kids [3 0 R 2 0 R 3 0 R] /Count 1 >>".to_vec(),
        ),
    ];
    objects.push((3, page("[4 0 R 4 0 R 3 0 R]")));
    objects.push((4, link("5 0 R")));
    objects.push((
        5,
        b"<< /S /URI /URI (https://example.org/) /Next [5 0 R 5 0 R] >>".to_vec(),
    ));
    let bytes = pdf(&objects, "");
    let (links, read) = links_of(&bytes);
    assert!(read.is_ok());
    assert_eq!(links.len(), 1, "{links:?}");
    // A /Prev that points to its own section, and two sections that point to each other.
    let base = pdf(&objects, "");
    let at = memchr::memmem::rfind(&base, b"\nxref").unwrap() + 1;
    let self_prev = replaced(
        &base,
        b" >>\nstartxref",
        format!(" /Prev {at} >>\nstartxref").as_bytes(),
    );
    let limits = irilint::extract::pdf::Limits::for_len(self_prev.len());
    assert!(
        !irilint::extract::pdf::Pdf::open(&self_prev, limits)
            .unwrap()
            .scanned
    );
    let (links, read) = links_of(&self_prev);
    assert!(read.is_ok());
    assert_eq!(links.len(), 1);
    // Two sections, each the other's /Prev: an update whose table points back at the first,
    // whose trailer points at the update.
    // The first trailer's /Prev, 10 digits wide, makes the file 15 bytes longer (`/Prev ` and
    // the digits, one space less): the second section starts there.
    let second = base.len() + 15;
    let mut two = replaced(
        &base,
        b"/Root 1 0 R  >>",
        format!("/Root 1 0 R /Prev {second:010}>>").as_bytes(),
    );
    assert_eq!(two.len(), second);
    two.extend(format!("xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 6 /Root 1 0 R /Prev {at} >>\nstartxref\n{second}\n%%EOF\n").as_bytes());
    let (links, read) = links_of(&two);
    assert!(read.is_ok());
    assert_eq!(links.len(), 1);
    // A page tree 10,000 nodes deep (each /Pages the only kid of the one before).
    let n = 10_000u32;
    let mut objects = vec![(1, b"<< /Type /Catalog /Pages 2 0 R >>".to_vec())];
    for i in 0..n {
        objects.push((
            2 + i,
            format!("<< /Type /Pages /Kids [{} 0 R] >>", 3 + i).into_bytes(),
        ));
    }
    objects.push((2 + n, page(&format!("[{} 0 R]", 3 + n))));
    objects.push((3 + n, link(&uri("https://example.org/deep"))));
    let (links, read) = links_of(&pdf(&objects, ""));
    assert!(read.is_ok());
    assert_eq!(
        links,
        [(
            "page 1 obj 10003".to_string(),
            "https://example.org/deep".to_string()
        )]
    );
}

#[test]
fn deep_nesting_is_no_object_and_no_overflow() {
    // 100,000 nested arrays in an annotation: past the depth limit, the annotation is not
    // read; the next one is.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let mut objects = page_tree(1);
    objects.push((3, page("[4 0 R 5 0 R]")));
    objects.push((
        4,
        format!(
            "<< /Type /Annot /Subtype /Link /X {deep} /A {} >>",
            uri("https://example.org/hidden")
        )
        .into_bytes(),
    ));
    objects.push((5, link(&uri("https://example.org/shown"))));
    let (links, read) = links_of(&pdf(&objects, ""));
    assert!(read.is_ok());
    assert_eq!(links.len(), 1);
    assert_eq!(links[0].1, "https://example.org/shown");
    // 60 levels are read.
    let nested = format!("{}{}", "[".repeat(60), "]".repeat(60));
    let mut objects = page_tree(1);
    objects.push((3, page("[4 0 R]")));
    objects.push((
        4,
        format!(
            "<< /Type /Annot /Subtype /Link /X {nested} /A {} >>",
            uri("https://example.org/ok")
        )
        .into_bytes(),
    ));
    assert_eq!(links_of(&pdf(&objects, "")).0.len(), 1);
}

#[test]
fn every_cut_of_the_fixtures_reads_without_panic() {
    for name in ["links", "compressed", "updated", "actions"] {
        let bytes = std::fs::read(format!("fixtures/packages/{name}.pdf")).unwrap();
        let start = Instant::now();
        let mut most = 0;
        for cut in 0..=bytes.len() {
            let (links, _) = links_of(&bytes[..cut]);
            most = most.max(links.len());
            // Bytes dropped in the middle too: an offset of the table then points elsewhere.
            let mut holed = bytes[..cut].to_vec();
            holed.extend(&bytes[(cut + 7).min(bytes.len())..]);
            let _ = links_of(&holed);
        }
        assert!(most > 0, "{name}");
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{name}: {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn broken_stream_lengths_and_offsets_are_survived() {
    // /Length past the end, negative, indirect and pointing to itself; an offset of the table
    // 3 bytes off (the object is found by a scan).
    for length in ["99999999", "-5", "6 0 R", "7 0 R"] {
        let mut objects = page_tree(1);
        objects.push((3, page("[4 0 R]")));
        objects.push((4, link("5 0 R")));
        let stream = format!(
            "<< /Type /ObjStm /N 1 /First 2 /Length {length} >>\nstream\n5 0 {}\nendstream",
            uri("https://example.org/x")
        );
        objects.push((6, stream.into_bytes()));
        objects.push((7, b"7 0 R".to_vec()));
        let _ = links_of(&pdf(&objects, ""));
    }
    let mut objects = page_tree(1);
    objects.push((3, page("[4 0 R]")));
    objects.push((4, link(&uri("https://example.org/moved"))));
    let bytes = pdf(&objects, "");
    // Three bytes more inside obj 3, and `startxref` moved with the table: the table's offset
    // of obj 4 now points 3 bytes early, into `endobj`.
    let xref = memchr::memmem::rfind(&bytes, b"\nxref").unwrap() + 1;
    let bytes = replaced(&bytes, b"<< /Type /Page ", b"<<    /Type /Page ");
    let bytes = replaced(
        &bytes,
        format!("startxref\n{xref}").as_bytes(),
        format!("startxref\n{}", xref + 3).as_bytes(),
    );
    let limits = irilint::extract::pdf::Limits::for_len(bytes.len());
    assert!(
        !irilint::extract::pdf::Pdf::open(&bytes, limits)
            .unwrap()
            .scanned
    );
    let (links, read) = links_of(&bytes);
    assert!(read.is_ok());
    assert_eq!(links.len(), 1, "{links:?}");
}

#[test]
fn the_links_of_many_pages_are_reported_sorted_by_path() {
    // Twelve pages, each with a link holding U+200B: `page 10` sorts before `page 2`, as
    // every path of a report does.
    let mut objects = page_tree(12);
    for i in 0..12 {
        objects.push((3 + i, page(&format!("[{} 0 R]", 15 + i))));
        objects.push((
            15 + i,
            link(&uri(&format!("https://example.org/{i}\\342\\200\\213"))),
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pages.pdf");
    std::fs::write(&path, pdf(&objects, "")).unwrap();
    let out = irilint()
        .args(["check", "--format", "json", path.to_str().unwrap()])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let paths: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap().rsplit('!').next().unwrap())
        .collect();
    assert_eq!(paths.len(), 12, "{paths:?}");
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
    assert_eq!(
        paths[..3],
        ["page 1 obj 15", "page 10 obj 24", "page 11 obj 25"]
    );
}

#[test]
fn a_pdf_format_is_asked_for_like_any_other() {
    // Ten bytes before `%PDF-` (readers allow them; the offsets are then off, and the objects
    // are found by a scan): not known by its first bytes, read when asked for.
    let mut bytes = b"garbage\n\n\n".to_vec();
    bytes.extend(std::fs::read(LINKS).unwrap());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shifted.bin");
    std::fs::write(&path, &bytes).unwrap();
    let path = path.to_str().unwrap();
    let (_, out, _) = run(&["check", "--format", "concise", "--quiet", path]);
    assert!(!out.contains("!page"), "{out}");
    let (code, out, err) = run(&[
        "check",
        "--format",
        "concise",
        "--quiet",
        "--input-format",
        "pdf",
        path,
    ]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.contains("shifted.bin!page 1 obj 5:1:9"), "{out}");
    // And by the configuration's [input-format].
    std::fs::write(
        dir.path().join("irilint.toml"),
        "[input-format]\n\"*.bin\" = \"pdf\"\n",
    )
    .unwrap();
    let out = irilint()
        .current_dir(dir.path())
        .args(["check", "--format", "concise", "--quiet", "."])
        .output()
        .unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.contains("shifted.bin!page 2 obj 4 annot 1:1:21"),
        "{out}"
    );
}
