//! `check --fix`, `--unsafe-fixes` and `--diff` on real files: a safe and an unsafe fix in each
//! format, written in the document's syntax and encoding (BOM, CRLF, windows-1252, Shift_JIS,
//! entities in attributes), idempotence, the diff, standard input, files that must not be
//! written, and a run killed in the middle.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use encoding_rs::{SHIFT_JIS, WINDOWS_1252};
use serde_json::Value;

fn irilint() -> Command {
    let mut cmd = Command::cargo_bin("irilint").expect("binary is built");
    cmd.env_remove("NO_COLOR");
    cmd
}

/// Runs `check --isolated --select ALL` with `args` in `dir`: (exit code, stdout, stderr).
fn check(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = irilint()
        .current_dir(dir)
        .args(["check", "--isolated", "--select", "ALL"])
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().expect("exited"),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

/// A temporary directory holding `name` with `bytes`.
fn with_file(name: &str, bytes: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    fs::write(&path, bytes).unwrap();
    (dir, path)
}

/// The file after `--fix` (with `--unsafe-fixes` if `unsafe_fixes`), checking that a second run
/// changes nothing.
fn fixed(name: &str, bytes: &[u8], unsafe_fixes: bool) -> Vec<u8> {
    let (dir, path) = with_file(name, bytes);
    let mut args = vec!["--fix", name];
    if unsafe_fixes {
        args.push("--unsafe-fixes");
    }
    let (_, stdout, stderr) = check(dir.path(), &args);
    assert!(
        stdout.contains("Fixed ") || stdout.contains("No safe fix to apply"),
        "{stdout}\n{stderr}"
    );
    let once = fs::read(&path).unwrap();
    let (_, stdout, _) = check(dir.path(), &args);
    assert!(
        stdout.contains("Fixed 0 issues") || stdout.contains("No safe fix to apply"),
        "not idempotent: {stdout}"
    );
    assert_eq!(
        fs::read(&path).unwrap(),
        once,
        "the second --fix changed the file"
    );
    once
}

fn utf8(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).expect("UTF-8")
}

#[test]
fn html_safe_and_unsafe_fixes_keep_entities_in_attributes() {
    let page = "<p><a href=\"HTTP://Example.org/a%7e?x=1&amp;y=%3a\">a</a>\n\
                <a href='/ros&#x202E;e b'>b</a></p>\n";
    // Safe: scheme, host, hex case, unreserved, the space; `&amp;` stays as written and the
    // reference that produced U+202E stays too.
    assert_eq!(
        utf8(fixed("a.html", page.as_bytes(), false)),
        "<p><a href=\"http://example.org/a~?x=1&amp;y=%3A\">a</a>\n\
         <a href='/ros&#x202E;e%20b'>b</a></p>\n"
    );
    // Unsafe: the whole `&#x202E;` goes.
    assert_eq!(
        utf8(fixed("a.html", page.as_bytes(), true)),
        "<p><a href=\"http://example.org/a~?x=1&amp;y=%3A\">a</a>\n\
         <a href='/rose%20b'>b</a></p>\n"
    );
}

#[test]
fn a_replacement_with_markup_characters_is_escaped_in_the_attribute() {
    // NFKC of U+FF06 FULLWIDTH AMPERSAND in a path is `&`, written `&amp;` in the attribute.
    let page = "<a href=\"http://x.org/a\u{FF06}b\">a</a>\n";
    let out = utf8(fixed("a.html", page.as_bytes(), true));
    assert_eq!(out, "<a href=\"http://x.org/a&amp;b\">a</a>\n");
}

#[test]
fn xml_and_svg_fixes_in_attributes_and_content() {
    let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n\
               <a xlink:href=\"http://x.org/a%7e?q=1&amp;r=a b\"/>\n\
               <a href=\"http://x.org/&#x202E;gpj.exe\"/>\n</svg>\n";
    assert_eq!(
        utf8(fixed("a.svg", svg.as_bytes(), false)),
        svg.replace("a%7e?q=1&amp;r=a b", "a~?q=1&amp;r=a%20b")
    );
    assert_eq!(
        utf8(fixed("a.svg", svg.as_bytes(), true)),
        svg.replace("a%7e?q=1&amp;r=a b", "a~?q=1&amp;r=a%20b")
            .replace("&#x202E;", "")
    );
    let sitemap = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
                   <url><loc>http://x.org/%e2%82%ac?a=1&amp;b=2\u{200B}</loc></url></urlset>\n";
    assert_eq!(
        utf8(fixed("s.xml", sitemap.as_bytes(), false)),
        sitemap.replace("%e2%82%ac", "%E2%82%AC")
    );
    assert_eq!(
        utf8(fixed("s.xml", sitemap.as_bytes(), true)),
        sitemap
            .replace("%e2%82%ac", "%E2%82%AC")
            .replace('\u{200B}', "")
    );
}

#[test]
fn cdata_is_written_without_escapes() {
    let xml = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
               <url><loc><![CDATA[http://x.org/a b?x=1&y=%7e]]></loc></url></urlset>\n";
    assert_eq!(
        utf8(fixed("c.xml", xml.as_bytes(), false)),
        xml.replace("a b?x=1&y=%7e", "a%20b?x=1&y=~")
    );
}

#[test]
fn markdown_destinations_keep_their_form_and_escapes() {
    let md = "# T\n\n[a](<http://x.org/a b%7e>) and [b](http://x.org/\\(x\\)\u{202E}y) \
              and http://x.org/t%7e\n\n[r]: http://x.org/\u{FF0F}z\n";
    assert_eq!(
        utf8(fixed("a.md", md.as_bytes(), false)),
        md.replace("a b%7e", "a%20b~").replace("t%7e", "t~")
    );
    assert_eq!(
        utf8(fixed("a.md", md.as_bytes(), true)),
        md.replace("a b%7e", "a%20b~")
            .replace("t%7e", "t~")
            .replace('\u{202E}', "")
            .replace('\u{FF0F}', "/")
    );
}

#[test]
fn text_fixes_change_only_the_iri() {
    let text =
        "See http://EXAMPLE.org/a%7e/ and https://files.example.org/invoice-\u{202E}gpj.exe.\n";
    assert_eq!(
        utf8(fixed("a.txt", text.as_bytes(), false)),
        text.replace("EXAMPLE.org/a%7e", "example.org/a~")
    );
    assert_eq!(
        utf8(fixed("a.txt", text.as_bytes(), true)),
        text.replace("EXAMPLE.org/a%7e", "example.org/a~")
            .replace('\u{202E}', "")
    );
}

#[test]
fn utf8_bom_and_crlf_are_kept() {
    let bytes =
        b"\xEF\xBB\xBFFirst line\r\nSee http://x.org/caf\xC3\xA9%7e\xE2\x80\x8B/\r\nlast\r\n";
    let out = fixed("a.txt", bytes, true);
    assert_eq!(
        out,
        b"\xEF\xBB\xBFFirst line\r\nSee http://x.org/caf\xC3\xA9~/\r\nlast\r\n"
    );
}

#[test]
fn windows_1252_pages_are_written_in_windows_1252() {
    // UTF-8 pasted into a windows-1252 page: `é` exists in windows-1252 and is written as its
    // byte; `日本` does not and becomes references. The other bytes stay as they were.
    let mut page = b"<meta charset=\"windows-1252\">\r\n<p>Caf\xE9</p>\r\n".to_vec();
    page.extend(b"<a href=\"http://x.org/r\xC3\xA9sum\xC3\xA9/%7e\">r</a>\r\n");
    page.extend(b"<a href=\"http://x.org/\xE6\x97\xA5\xE6\x9C\xAC\">j</a>\r\n");
    let safe = fixed("w.html", &page, false);
    assert_eq!(safe, page.replace_all(b"/%7e", b"/~"));
    let out = fixed("w.html", &page, true);
    let (text, _, errors) = WINDOWS_1252.decode(&out);
    assert!(!errors);
    assert_eq!(
        text,
        "<meta charset=\"windows-1252\">\r\n<p>Café</p>\r\n\
         <a href=\"http://x.org/résumé/~\">r</a>\r\n\
         <a href=\"http://x.org/&#x65E5;&#x672C;\">j</a>\r\n"
    );
    assert!(out.windows(4).any(|w| w == b"r\xE9su"), "é as one byte");
}

#[test]
fn shift_jis_pages_are_written_in_shift_jis() {
    let (nihon, _, _) = SHIFT_JIS.encode("日本");
    let mut page = b"<meta charset=\"shift_jis\">\n<p>".to_vec();
    page.extend(nihon.iter());
    page.extend(b"</p>\n<a href=\"http://x.org/");
    page.extend(nihon.iter());
    page.extend(b"/cafe&#x301;/%7e\">r</a>\n");
    let out = fixed("j.html", &page, true);
    let (text, _, errors) = SHIFT_JIS.decode(&out);
    assert!(!errors);
    // `é` has no Shift_JIS form: the NFC fix writes a reference.
    assert_eq!(
        text,
        "<meta charset=\"shift_jis\">\n<p>日本</p>\n<a href=\"http://x.org/日本/caf&#xE9;/~\">r</a>\n"
    );
    let mut expected_prefix = b"<meta charset=\"shift_jis\">\n<p>".to_vec();
    expected_prefix.extend(nihon.iter());
    assert!(out.starts_with(&expected_prefix));
}

#[test]
fn utf16_files_stay_utf16() {
    let bytes: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(
            "x http://x.org/a%7e\u{202E}b\r\n"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        )
        .collect();
    let out = fixed("u.txt", &bytes, true);
    let expected: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(
            "x http://x.org/a~b\r\n"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        )
        .collect();
    assert_eq!(out, expected);
}

#[test]
fn diff_shows_the_change_and_writes_nothing() {
    let text = "a\nsee http://x.org/%7e\u{202E}x\nb\n";
    let (dir, path) = with_file("a.txt", text.as_bytes());
    let (code, stdout, stderr) = check(dir.path(), &["--diff", "a.txt"]);
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n a\n-see http://x.org/%7e\u{202E}x\n+see http://x.org/~\u{202E}x\n b\n"
    );
    assert!(
        stderr.contains("Would fix 1 issue (1 more fixable with --unsafe-fixes)."),
        "{stderr}"
    );
    assert_eq!(fs::read(&path).unwrap(), text.as_bytes());
    let (code, stdout, _) = check(dir.path(), &["--diff", "--unsafe-fixes", "a.txt"]);
    assert_eq!(code, 1);
    assert!(stdout.contains("+see http://x.org/~x\n"), "{stdout}");
    // Nothing to fix: no diff, exit 0.
    let (dir, _) = with_file("b.txt", b"see http://x.org/ok\n");
    let (code, stdout, _) = check(dir.path(), &["--diff", "b.txt"]);
    assert_eq!((code, stdout.as_str()), (0, ""));
}

#[test]
fn stdin_is_fixed_to_stdout_with_the_report_on_stderr() {
    let out = irilint()
        .args([
            "check",
            "--isolated",
            "--select",
            "ALL",
            "--fix",
            "--stdin-filename",
            "a.md",
            "-",
        ])
        .write_stdin("[x](http://x.org/%7e\u{202E}) http://X.org/\n")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "[x](http://x.org/~\u{202E}) http://x.org/\n"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("bidi-formatting-character"), "{stderr}");
    assert!(stderr.contains("fix available (unsafe)"), "{stderr}");
    assert!(stderr.contains("Fixed 2 issues, 1 remaining"), "{stderr}");
    assert!(!stderr.contains('\u{202E}'), "raw RLO in the report");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn json_carries_the_fix_with_replacements_in_utf8() {
    let page = b"<meta charset=\"windows-1252\"><p>Caf\xE9</p><a href=\"http://x.org/r\xC3\xA9sum\xC3\xA9\">r</a>";
    let (dir, _) = with_file("w.html", page);
    let (_, stdout, _) = check(dir.path(), &["--format", "json", "w.html"]);
    let r: Value = serde_json::from_str(&stdout).unwrap();
    let d = &r["diagnostics"][0];
    assert_eq!(d["rule"], "encoding-utf8-in-legacy-document");
    assert_eq!(d["fix"]["applicability"], "unsafe");
    let edit = &d["fix"]["edits"][0];
    assert_eq!(edit["replacement"], "é");
    assert_eq!(edit["span"], d["span"]);
    // The human report says a fix is there.
    let (_, stdout, _) = check(dir.path(), &["--color", "never", "w.html"]);
    assert!(stdout.contains("fix available (unsafe)"), "{stdout}");
}

#[test]
fn permissions_and_symlinks_are_kept() {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let (dir, path) = with_file("target.txt", b"http://x.org/%7e\n");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    symlink("target.txt", dir.path().join("link.txt")).unwrap();
    let (_, stdout, _) = check(dir.path(), &["--fix", "link.txt"]);
    assert!(stdout.contains("Fixed 1 issue"), "{stdout}");
    assert_eq!(fs::read(&path).unwrap(), b"http://x.org/~\n");
    let link = fs::symlink_metadata(dir.path().join("link.txt")).unwrap();
    assert!(link.file_type().is_symlink(), "the link was replaced");
    let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    // No temporary file is left behind.
    let names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

/// Makes `path` unwritable: read-only permissions, and for root (whom permissions do not stop)
/// the immutable attribute. False when neither works here.
fn make_unwritable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(0o444)).unwrap();
    let writable = || fs::OpenOptions::new().write(true).open(path).is_ok();
    if writable() {
        let _ = std::process::Command::new("chattr")
            .arg("+i")
            .arg(path)
            .status();
    }
    !writable()
}

#[test]
fn an_unwritable_file_is_reported_and_left_untouched_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let locked = dir.path().join("locked.txt");
    let free = dir.path().join("free.txt");
    fs::write(&locked, b"http://x.org/%7e\n").unwrap();
    fs::write(&free, b"http://x.org/%7e\n").unwrap();
    if !make_unwritable(&locked) {
        eprintln!("cannot make a file unwritable here; skipped");
        return;
    }
    let (code, _, stderr) = check(dir.path(), &["--fix", "locked.txt", "free.txt"]);
    let _ = std::process::Command::new("chattr")
        .arg("-i")
        .arg(&locked)
        .status();
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("locked.txt: cannot write it"), "{stderr}");
    assert_eq!(fs::read(&locked).unwrap(), b"http://x.org/%7e\n");
    assert_eq!(fs::read(&free).unwrap(), b"http://x.org/~\n");
}

#[test]
fn killing_the_run_leaves_every_file_old_or_new() {
    let dir = tempfile::tempdir().unwrap();
    let n = 400;
    let old =
        |i: usize| format!("line {i}\nsee http://EXAMPLE.org/{i}/%7e%7e and more\n").repeat(50);
    let new = |i: usize| format!("line {i}\nsee http://example.org/{i}/~~ and more\n").repeat(50);
    let mut mixed_runs = 0;
    for delay_ms in [20, 60, 150] {
        for i in 0..n {
            fs::write(dir.path().join(format!("f{i}.txt")), old(i)).unwrap();
        }
        let bin = assert_cmd::cargo::cargo_bin("irilint");
        let mut child = std::process::Command::new(bin)
            .current_dir(dir.path())
            .args(["check", "--isolated", "--select", "ALL", "--fix", "-q", "."])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        // SIGKILL: nothing of the process runs after it.
        let _ = child.kill();
        let _ = child.wait();
        let (mut olds, mut news) = (0, 0);
        for i in 0..n {
            let got = fs::read_to_string(dir.path().join(format!("f{i}.txt"))).unwrap();
            if got == old(i) {
                olds += 1;
            } else if got == new(i) {
                news += 1;
            } else {
                panic!("f{i}.txt is neither the old nor the new file: {got:?}");
            }
        }
        if olds > 0 && news > 0 {
            mixed_runs += 1;
        }
        // Besides the files, at most the hidden temporary file a killed write leaves behind.
        for entry in fs::read_dir(dir.path()).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            let temp =
                name.starts_with(".f") && name.contains(".txt.irilint-") && name.ends_with(".tmp");
            assert!(temp || name.starts_with('f'), "unexpected file {name}");
            if temp {
                fs::remove_file(dir.path().join(&name)).unwrap();
            }
        }
    }
    // Whether a kill lands mid-run depends on the machine; the property above holds either way.
    eprintln!("{mixed_runs} of 3 runs were killed in the middle");
}

trait ReplaceAll {
    fn replace_all(&self, from: &[u8], to: &[u8]) -> Vec<u8>;
}

impl ReplaceAll for Vec<u8> {
    fn replace_all(&self, from: &[u8], to: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < self.len() {
            if self[i..].starts_with(from) {
                out.extend_from_slice(to);
                i += from.len();
            } else {
                out.push(self[i]);
                i += 1;
            }
        }
        out
    }
}

#[test]
fn baselined_findings_are_not_fixed_nor_is_their_iri() {
    let (dir, path) = with_file("a.txt", b"old http://X.org/\xE2\x80\xAE\n");
    // Written with the default rules: the RLO is baselined, the host's case (an `info` rule,
    // off by default) is not.
    let out = irilint()
        .current_dir(dir.path())
        .args([
            "check",
            "--isolated",
            "--write-baseline",
            "base.json",
            "a.txt",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    fs::write(
        &path,
        b"old http://X.org/\xE2\x80\xAE\nnew http://Y.org/\xE2\x80\xAE\n",
    )
    .unwrap();
    let (_, stdout, _) = check(
        dir.path(),
        &[
            "--fix",
            "--unsafe-fixes",
            "--baseline",
            "base.json",
            "a.txt",
        ],
    );
    assert!(stdout.contains("Fixed 2 issues, 1 remaining"), "{stdout}");
    // The baselined IRI keeps even the fixable case of its host: fixing it would make the
    // baseline lose track of its RLO, which the next pass would then remove.
    assert_eq!(
        fs::read(&path).unwrap(),
        b"old http://X.org/\xE2\x80\xAE\nnew http://y.org/\n"
    );
}

/// Copies `from` into `to`, recursively.
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn every_fixture_fix_stays_in_its_span_applies_and_settles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let dir = tempfile::tempdir().unwrap();
    for format in ["html", "xml", "markdown", "text"] {
        copy_tree(&root.join(format), &dir.path().join(format));
    }
    let (_, stdout, _) = check(dir.path(), &["--format", "json", "."]);
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let mut fixable = 0;
    for d in report["diagnostics"].as_array().unwrap() {
        let Some(edits) = d["fix"]["edits"].as_array() else {
            continue;
        };
        fixable += 1;
        // Each edit lies inside one of the diagnostic's places (`spans` when it has several).
        let places: Vec<&Value> = match d["spans"].as_array() {
            Some(all) => all.iter().collect(),
            None => vec![&d["span"]],
        };
        for e in edits {
            let (s, t) = (&e["span"]["start"]["offset"], &e["span"]["end"]["offset"]);
            assert!(
                places
                    .iter()
                    .any(|p| p["start"]["offset"].as_u64() <= s.as_u64()
                        && t.as_u64() <= p["end"]["offset"].as_u64()),
                "an edit outside its diagnostic's places: {d}"
            );
        }
    }
    assert!(fixable > 100, "{fixable}");
    let (_, stdout, stderr) = check(
        dir.path(),
        &["--fix", "--unsafe-fixes", "--format", "json", "."],
    );
    let report: Value = serde_json::from_str(&stdout).unwrap();
    // Every fix was applied: none is rejected by the checks of a pass.
    let left: Vec<&Value> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| !d["fix"].is_null())
        .collect();
    assert!(left.is_empty(), "{left:?}\n{stderr}");
    assert_eq!(report["errors"], Value::Array(vec![]));
    let (code, stdout, _) = check(dir.path(), &["--diff", "--unsafe-fixes", "."]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, ""),
        "a second run would change more"
    );
}

#[test]
fn a_fix_that_would_change_more_than_its_iri_is_left_out_and_said_so() {
    // Decoding `%2E` at the end of an IRI in text makes a `.` that the text extractor leaves
    // out of the IRI: the pass check sees the IRI come out different and refuses the fix.
    let (dir, path) = with_file("a.txt", b"see http://x.org/a%2E and more\n");
    let (code, stdout, stderr) = check(dir.path(), &["--fix", "--format", "json", "a.txt"]);
    assert_eq!(code, 0);
    assert!(stderr.contains("a.txt: 1 fix left out"), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let d = &report["diagnostics"][0];
    assert_eq!(d["rule"], "percent-encoded-unreserved");
    assert_eq!(
        d["fix"],
        Value::Null,
        "a refused fix is not offered to editors"
    );
    assert_eq!(
        fs::read(&path).unwrap(),
        b"see http://x.org/a%2E and more\n"
    );
}

#[test]
fn stdin_that_cannot_be_fixed_writes_nothing_to_stdout_and_fails() {
    let out = irilint()
        .args(["check", "--isolated", "--fix", "-"])
        .write_stdin(&b"a\0b http://x.org/%7e"[..])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stdout.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("standard input was not fixed"), "{stderr}");
}

/// With a placeholder in it (an AsciiDoc attribute reference, a template expression), what
/// the IRI becomes is not known: `%5C` for a `\` is equivalent only where `\` is no `/`, and
/// the reference may hold the scheme. No fix of it is safe, so `--fix` leaves it alone.
#[test]
fn a_fix_of_an_iri_with_a_placeholder_is_never_safe() {
    for (name, text) in [
        (
            "CHANGELOG.adoc",
            ":url-repo: https://github.com/asciidoctor/asciidoctor\n\n{url-repo}/compare/v2.0.25\\v2.0.26[full diff]\n",
        ),
        ("page.html", "<a href=\"{{ base }}/a b\">x</a>\n"),
    ] {
        let (dir, path) = with_file(name, text.as_bytes());
        let (_, stdout, stderr) = check(dir.path(), &["--fix", name]);
        assert!(
            stdout.contains("No safe fix to apply"),
            "{name}: {stdout}\n{stderr}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), text, "{name}");
        assert_ne!(
            utf8(fixed(name, text.as_bytes(), true)),
            text,
            "{name}: unsafe fix"
        );
    }
}

/// Writes the same small project (LF, CRLF, a BOM, no newline at the end, in a subdirectory)
/// into `dir`.
fn patchable_project(dir: &Path) {
    fs::create_dir_all(dir.join("docs/sub")).unwrap();
    let files: [(&str, &[u8]); 5] = [
        (
            "docs/lf.html",
            b"<p>\n<a href=\"HTTP://Example.org/caf%c3%a9\">x</a>\n<a href=\"http://e.org/%7e\">y</a>\n</p>\n",
        ),
        (
            "docs/crlf.md",
            b"# Title\r\n\r\nSee <http://e.org/a%7eb> and\r\n[x](http://E.org/%3a).\r\nEnd.\r\n",
        ),
        (
            "docs/sub/bom.txt",
            // A BOM, and the fixes further down.
            b"\xEF\xBB\xBFfirst\n2\n3\n4\n5\nhttp://e.org/%7e\nplain\nhttp://e.org/%3a last\n",
        ),
        ("docs/sub/no-newline.txt", b"line\nhttp://e.org/%7e"),
        (
            // Hidden characters on the lines a hunk names: kept by a safe fix, removed by an
            // unsafe one; either way the patch must name them to apply.
            "docs/hidden.txt",
            "zero width http://e.org/a\u{200B}b/%7e\nright to left http://e.org/c\u{202E}d\n".as_bytes(),
        ),
    ];
    for (name, bytes) in files {
        fs::write(dir.join(name), bytes).unwrap();
    }
}

/// Every file under `dir`, with its bytes, sorted.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let name = p.strip_prefix(dir).unwrap().display().to_string();
                out.push((name, fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_diff_applies_with_patch_and_git_apply_crlf_files_included() {
    let have = |tool: &str| {
        std::process::Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !have("patch") || !have("git") {
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
        assert!(!ci, "CI is set and `patch` or `git` is missing");
        eprintln!("SKIPPED: `patch` or `git` is not installed");
        return;
    }
    for unsafe_fixes in [&[][..], &["--unsafe-fixes"]] {
        // The reference: --fix in place.
        let fixed = tempfile::tempdir().unwrap();
        patchable_project(fixed.path());
        let before = tree(fixed.path());
        let (_, _, stderr) = check(fixed.path(), &[&["--fix"][..], unsafe_fixes].concat());
        let after = tree(fixed.path());
        assert_ne!(before, after, "{stderr}");
        // The diff, from the current directory (`./docs/...` as walked) and of a named directory.
        for args in [&["--diff"][..], &["--diff", "docs"]] {
            let args = [args, unsafe_fixes].concat();
            let source = tempfile::tempdir().unwrap();
            patchable_project(source.path());
            let (code, diff, stderr) = check(source.path(), &args);
            assert!(
                diff.contains('\u{200B}'),
                "the hidden character as it is: {diff}"
            );
            assert!(!diff.contains("⟨U+"), "{diff}");
            assert_eq!(code, 1, "{stderr}");
            assert!(!diff.contains("a/./"), "{diff}");
            assert!(diff.contains("\r\n"), "CRLF lines keep their ends: {diff}");
            assert_eq!(tree(source.path()), before, "--diff writes nothing");
            let patch_file = source.path().join("../fixes.patch");
            fs::write(&patch_file, &diff).unwrap();
            for tool in [
                &["patch", "-p1", "--forward", "--batch", "-i"][..],
                &["git", "apply", "--verbose"],
            ] {
                let target = tempfile::tempdir().unwrap();
                patchable_project(target.path());
                let out = std::process::Command::new(tool[0])
                    .args(&tool[1..])
                    .arg(&patch_file)
                    .current_dir(target.path())
                    .output()
                    .unwrap();
                assert!(
                    out.status.success(),
                    "{tool:?} refuses the diff:\n{}{}\n{diff}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                );
                assert_eq!(tree(target.path()), after, "{tool:?}");
            }
            fs::remove_file(&patch_file).unwrap();
        }
    }
}

#[test]
fn a_first_fix_with_the_default_rules_says_its_fixes_are_unsafe_and_how_to_apply_them() {
    // The default rules: what they fix (a bidi control, an invisible character) is unsafe.
    let text = "http://e.org/a\u{202E}b\nhttp://e.org/c\u{200B}d\n";
    let (dir, path) = with_file("a.txt", text.as_bytes());
    let run = |args: &[&str]| {
        let out = irilint()
            .current_dir(dir.path())
            .args(["check", "--isolated"])
            .args(args)
            .output()
            .unwrap();
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (stdout, _) = run(&["--fix"]);
    let last = stdout.lines().last().unwrap();
    assert_eq!(
        last,
        "No safe fix to apply, 2 remaining. The 2 fixes available are unsafe (they may change which resource a link names): review them with `--diff --unsafe-fixes`, apply them with `--fix --unsafe-fixes`."
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), text);
    let (_, stderr) = run(&["--diff"]);
    assert!(
        stderr.contains("No safe fix to show. The 2 fixes available are unsafe"),
        "{stderr}"
    );
    // What it says to run works.
    let (stdout, _) = run(&["--fix", "--unsafe-fixes"]);
    assert!(stdout.contains("Fixed 2 issues, 0 remaining."), "{stdout}");
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "http://e.org/ab\nhttp://e.org/cd\n"
    );
}

/// Issue W item 1: `[` `]` in a query and a second `#` are what every browser keeps as data, so
/// with the default settings they are warnings (exit 0) with a fix; the fix needs
/// `--unsafe-fixes` (reserved characters: RFC 3986 does not make `%5B` and `[` equivalent),
/// and the fixed file lints clean. Lines cut from real documents: the Vue docs' link to
/// `filter[lang][0]` style queries and GNOME's matrix.to room links.
#[test]
fn brackets_in_the_query_and_a_second_hash_are_warnings_with_a_fix() {
    let doc = "See [the list](https://example.com/list?filter[lang][0]=Python) and \
               [the room](https://matrix.to/#/#room:gnome.org).\n";
    let (dir, path) = with_file("a.md", doc.as_bytes());
    let out = irilint()
        .current_dir(dir.path())
        .args(["check", "--isolated", "--format", "json", "a.md"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "warnings only: exit 0");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let found: Vec<(&str, &str, usize)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap(),
                d["severity"].as_str().unwrap(),
                d["spans"].as_array().map_or(1, Vec::len),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("syntax-unwise-ascii", "warning", 3),
            ("syntax-unwise-ascii", "warning", 1)
        ],
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // The safe fixes leave them alone; the unsafe ones percent-encode them.
    let (_, _, _) = check(dir.path(), &["--fix", "a.md"]);
    assert_eq!(fs::read_to_string(&path).unwrap(), doc);
    let after = fixed("a.md", doc.as_bytes(), true);
    assert_eq!(
        String::from_utf8(after.clone()).unwrap(),
        "See [the list](https://example.com/list?filter%5Blang%5D%5B0%5D=Python) and \
         [the room](https://matrix.to/#/%23room:gnome.org).\n"
    );
    let (dir, _) = with_file("a.md", &after);
    let (code, stdout, _) = check(dir.path(), &["--format", "json", "a.md"]);
    assert_eq!(code, 0);
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["diagnostics"], serde_json::json!([]), "{stdout}");
}

/// `--fix` reads the bytes of a file in another encoding again in chunks of 64 KiB: a character
/// cut by a chunk's end (Shift_JIS's two bytes, a UTF-16 surrogate pair) is decoded whole, and
/// the file written is the bytes read with only the IRIs' bytes changed, wherever the cut falls
/// (before, in and after an IRI).
#[test]
fn a_chunk_boundary_inside_a_character_changes_nothing_else() {
    use encoding_rs::{Encoding, UTF_16LE};
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        irilint()
            .current_dir(dir.path())
            .args([
                "check",
                "--isolated",
                "--select",
                "percent-encoded-unreserved,percent-lowercase-hex",
            ])
            .args(args)
            .output()
            .unwrap()
    };
    // The body (after the BOM) is read 64 KiB at a time.
    const CHUNK: usize = 64 * 1024;
    // Shift_JIS: a two-byte character cut after its first byte; UTF-16: a surrogate pair cut
    // between its two units.
    let cases: [(&'static Encoding, &str, &[u8], &str, usize); 2] = [
        (
            SHIFT_JIS,
            "t.html",
            b"<meta charset=\"shift_jis\">\n",
            "\u{65e5}",
            1,
        ),
        (UTF_16LE, "t.txt", b"\xFF\xFE", "\u{1F600}", 2),
    ];
    for (encoding, name, head, wide, shift) in cases {
        let encode = |s: &str| -> Vec<u8> {
            if encoding == UTF_16LE {
                s.encode_utf16().flat_map(u16::to_le_bytes).collect()
            } else {
                encoding.encode(s).0.into_owned()
            }
        };
        let body_from = if encoding == UTF_16LE { head.len() } else { 0 };
        let (ascii, wide) = (encode("a"), encode(wide));
        let link = |iri: &str| {
            if name.ends_with(".html") {
                format!("\n<a href=\"{iri}\">x</a>\n")
            } else {
                format!("\n {iri} \n")
            }
        };
        let iri = "http://example.org/a%7eb%7e";
        let mut bytes = head.to_vec();
        let body = |bytes: &Vec<u8>| bytes.len() - body_from;
        while !(CHUNK - shift - body(&bytes)).is_multiple_of(wide.len()) {
            bytes.extend(&ascii);
        }
        while body(&bytes) < CHUNK - shift {
            bytes.extend(&wide);
        }
        assert_eq!(body(&bytes), CHUNK - shift);
        // This one is cut by the first chunk's end; an IRI right after it.
        bytes.extend(&wide);
        let mut fixed = bytes.clone();
        bytes.extend(encode(&link(iri)));
        fixed.extend(encode(&link(iri).replace("%7e", "~")));
        // The next IRI cut by the second chunk's end.
        while body(&bytes) + wide.len() < 2 * CHUNK - 8 * ascii.len() {
            bytes.extend(&wide);
            fixed.extend(&wide);
        }
        bytes.extend(encode(&link(iri)));
        fixed.extend(encode(&link(iri).replace("%7e", "~")));
        assert!(body(&bytes) > 2 * CHUNK);
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        let out = run(&["--fix", name]);
        assert_eq!(out.status.code(), Some(0), "{}", encoding.name());
        assert!(
            std::fs::read(&path).unwrap() == fixed,
            "{}: not the bytes read with the IRIs fixed",
            encoding.name()
        );
        // And `--diff` of it shows those two lines fixed.
        std::fs::write(&path, &bytes).unwrap();
        let out = run(&["--diff", name]);
        assert_eq!(out.status.code(), Some(1), "{}", encoding.name());
        let diff = String::from_utf8(out.stdout).unwrap();
        let fixed_line = format!("\n+{}", &link(iri).replace("%7e", "~")[1..]);
        assert_eq!(diff.matches(&fixed_line).count(), 2, "{diff}");
    }
}
