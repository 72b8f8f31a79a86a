//! `equivalent-variants` holds fixed-size records of a run's absolute IRIs, put aside in sorted
//! runs in a temporary file past a budget, and reads again only the files that hold a place of
//! a resource written more than one way: what a run holds does not grow with the distinct IRIs
//! it reads, and its findings are those the rule made when it held every IRI.
//!
//! Before: each distinct IRI's normal form, spelling and places were held until the first pass
//! ended, about 430 bytes per distinct IRI (2,000 files of 50 KB, 640,000 distinct IRIs: 287 MB
//! RSS).
//!
//! Alone in its test binary: the allocator counts the whole process.

mod common;

use std::path::Path;

use common::counting::{Counting, peak_of};
use irilint::check::{self, CheckOptions, FileOutcome, LoadOptions};
use irilint::config::FileSettings;
use irilint::rules::Selection;
use irilint::walk::{Entry, Input};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Distinct IRIs per file.
const IRIS: usize = 250;

/// `n` files in a new directory `name` under `dir`, each of [`IRIS`] distinct IRIs and three
/// resources written another way in every other file.
fn files(dir: &Path, name: &str, n: usize) -> std::path::PathBuf {
    let root = dir.join(name);
    std::fs::create_dir(&root).unwrap();
    for k in 0..n {
        let mut text: String = (0..IRIS)
            .map(|i| format!("see http://example.org/{k}/{i} here\n"))
            .collect();
        for r in 0..3 {
            let host = if k % 2 == 0 { "example" } else { "EXAMPLE" };
            text.push_str(&format!("and http://{host}.net/{r}/a%7e\n"));
        }
        std::fs::write(root.join(format!("f{k:04}.txt")), text).unwrap();
    }
    root
}

/// Runs `irilint check --quiet --format json --output-file REPORT ARGS…` in this process: its
/// peak, its exit code and the report it wrote.
fn json_run(report: &Path, args: &[&str]) -> (usize, std::process::ExitCode, serde_json::Value) {
    let all: Vec<std::ffi::OsString> = ["irilint", "check", "--quiet", "--format", "json"]
        .iter()
        .map(Into::into)
        .chain(["--output-file".into(), report.as_os_str().to_owned()])
        .chain(args.iter().map(Into::into))
        .collect();
    let (peak, code) = peak_of(|| irilint::cli::run(all));
    let text = std::fs::read_to_string(report).expect("the report was written");
    let json = serde_json::from_str(&text).unwrap();
    (peak, code, json)
}

/// The `equivalent-variants` findings of a JSON report.
fn variants_found(json: &serde_json::Value) -> Vec<&serde_json::Value> {
    json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "equivalent-variants")
        .collect()
}

/// The peak of `irilint check` with `equivalent-variants` over `n` files, a JSON report written.
fn cli_peak(dir: &Path, name: &str, n: usize, args: &[&str]) -> usize {
    let root = files(dir, name, n);
    let report = dir.join(format!("{name}.json"));
    let mut all = vec!["--extend-select", "equivalent-variants"];
    all.extend(args);
    all.push(root.to_str().unwrap());
    let (peak, code, json) = json_run(&report, &all);
    assert_ne!(code, std::process::ExitCode::from(2), "{args:?}");
    let found = variants_found(&json);
    assert_eq!(found.len(), 3, "{name}");
    let places = format!("written 2 ways in {n} places");
    assert!(
        found[0]["message"].as_str().unwrap().contains(&places),
        "{}",
        found[0]["message"]
    );
    peak
}

/// A file's path, its findings, and the project's findings as rendered.
type Found = (String, Vec<irilint::diagnostic::Diagnostic>, String);

/// The findings of `equivalent-variants` over the files of `root`, per path: made in memory
/// from every IRI (`check::run`), and by the first pass with at most `held` records held.
fn both_ways(
    root: &Path,
    held: usize,
    change: impl Fn(&FileOutcome),
) -> (Vec<Found>, Vec<Found>, Vec<String>) {
    let selection = Selection::from_selectors(&["equivalent-variants"], &[], &[]).unwrap();
    let settings = std::sync::Arc::new(FileSettings {
        selection: selection.clone(),
        ..FileSettings::default()
    });
    let mut paths: Vec<_> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    let inputs: Vec<Entry> = paths
        .into_iter()
        .map(|path| Entry {
            input: Input::File {
                path,
                explicit: false,
            },
            settings: settings.clone(),
        })
        .collect();
    // The project's findings rendered in the order they are added to their file: the order
    // the terminal reports show them in.
    let render = |path: &str, found: &[irilint::diagnostic::Diagnostic]| {
        let lines = found
            .iter()
            .map(|d| format!("{path}:{}: {}\n", d.start.line, d.message));
        lines.collect::<String>()
    };
    let options = CheckOptions {
        render_project: Some(&render),
        ..CheckOptions::new(&selection)
    };
    let load = LoadOptions::default();
    let held_all = check::run(&inputs, &load, &options);
    let in_memory = held_all
        .files
        .iter()
        .map(|f| (f.path.clone(), f.diagnostics.clone(), f.rendered.clone()))
        .collect();
    let per_file = |loaded: check::Loaded, settings: &FileSettings| {
        check::check_with(&loaded.source, settings, &options)
    };
    let project = check::first_pass_held(&inputs, &load, &per_file, change, held);
    let streamed = held_all
        .files
        .iter()
        .map(|f| {
            let mut again = FileOutcome {
                path: f.path.clone(),
                ..FileOutcome::default()
            };
            // An error leaves the file's findings out: the comparison says so.
            let _ = project.add_to(&mut again, &options);
            (f.path.clone(), again.diagnostics, again.rendered)
        })
        .collect();
    (in_memory, streamed, project.changed().to_vec())
}

/// Spellings of a few resources across formats and files: percent-encoding, case, default
/// ports, a resource written four and five ways, one in more places than a report lists.
fn project(root: &Path) {
    std::fs::create_dir(root).unwrap();
    std::fs::write(
        root.join("a.html"),
        "<a href=\"http://example.org/~u\">x</a>\n<a href=\"HTTP://example.org/%7Eu\">y</a>\n\
         <a href=\"http://Example.org:80/~u\">z</a>\n<a href=\"http://f.example/\">f</a>\n",
    )
    .unwrap();
    // Many findings in one file: the terminal reports show them in the order the run meets
    // their resources, not in the order of the records' hashes.
    let more: String = (0..8)
        .map(|j| format!("\nhttp://r{j}.example/ and HTTP://r{j}.example/\n"))
        .collect();
    std::fs::write(
        root.join("b.md"),
        "[a](http://example.org/%7eu) and <ftp://FTP.example.net/pub/> and \
         <ftp://ftp.example.net:21/pub/>\n\nhttp://f.example/ again, http://g.example/%41\n"
            .to_string()
            + &more,
    )
    .unwrap();
    let c: String = (0..1_200)
        .map(|i| {
            let host = [
                "h.example",
                "H.example",
                "h.EXAMPLE",
                "h.example:80",
                "H.EXAMPLE",
            ][i % 5];
            format!("http://{host}/x\n")
        })
        .collect();
    std::fs::write(root.join("c.txt"), c + "http://g.example/A\n").unwrap();
}

#[test]
fn equivalent_variants_holds_records_of_a_budget_not_of_every_iri() {
    let dir = tempfile::tempdir().unwrap();

    // The same findings, to the byte, whether the records are all held or put aside one by one.
    let root = dir.path().join("project");
    project(&root);
    for held in [1, 3, 1 << 20] {
        let (in_memory, streamed, changed) = both_ways(&root, held, |_| {});
        assert!(
            in_memory == streamed,
            "records put aside every {held}: the findings or their order differ"
        );
        assert!(changed.is_empty());
        let count = |files: &[Found]| files.iter().map(|(_, d, _)| d.len()).sum::<usize>();
        assert_eq!(count(&streamed), 12, "{streamed:#?}");
        let largest = streamed
            .iter()
            .flat_map(|(_, d, _)| d)
            .map(|d| d.related.len())
            .max();
        // 1,200 places of one resource: the first 1,000 others are listed, all are counted.
        assert_eq!(largest, Some(irilint::equivalence::MAX_RELATED));
    }

    // A file that changes between the first pass and its second reading: its findings are left
    // out and the file named, never reported at places that no longer hold the IRI.
    let changing = root.join("b.md");
    let (_, streamed, changed) = both_ways(&root, 2, |f| {
        if f.path.ends_with("b.md") {
            std::fs::write(&changing, "nothing here any more\n").unwrap();
        }
    });
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(changed[0].ends_with("b.md"), "{changed:?}");
    let messages: Vec<&str> = streamed
        .iter()
        .flat_map(|(_, d, _)| d)
        .map(|d| &*d.message)
        .collect();
    assert!(
        messages.iter().all(|m| !m.contains("example.net")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("h.example")),
        "{messages:?}"
    );

    // Memory: 4 times the distinct IRIs cost a constant, not their records (about 430 bytes each
    // before: 6 MB more for 15,000 IRIs more).
    let small = cli_peak(dir.path(), "small", 20, &[]);
    let large = cli_peak(dir.path(), "large", 80, &[]);
    let per_iri = large.saturating_sub(small) / (60 * IRIS);
    eprintln!(
        "equivalent-variants: peak {small} at 5,000 IRIs, {large} at 20,000: {per_iri} a distinct IRI"
    );
    assert!(
        per_iri <= 16,
        "{per_iri} bytes more at the peak per distinct IRI added (at most 16)"
    );

    one_large_file_holds_no_record_per_iri(dir.path());
    a_path_two_files_share_is_read_by_the_run_order(dir.path());
    stdin_among_the_inputs_is_read_again_from_a_temporary_file(dir.path());
    findings_are_put_aside_until_their_files_are_reported(dir.path());
    a_file_lists_its_first_findings_and_counts_the_rest(dir.path());
}

/// A file whose every IRI is written another way in another file lists its first
/// `MAX_LISTED` findings of `equivalent-variants`, in the order of the report, and counts the
/// rest, as it does its own findings: they are not all made and held at once (before: each,
/// about 1.7 KB, held until the file was reported; 100,000 IRIs of 1.9 MB took 230 MB).
fn a_file_lists_its_first_findings_and_counts_the_rest(dir: &Path) {
    let run = |n: usize| {
        let root = dir.join(format!("many-{n}"));
        std::fs::create_dir(&root).unwrap();
        let lines = |scheme: &str| -> String {
            (0..n).map(|i| format!("{scheme}://e.org/{i}\n")).collect()
        };
        std::fs::write(root.join("a.txt"), lines("http")).unwrap();
        std::fs::write(root.join("b.txt"), lines("HTTP")).unwrap();
        let report = dir.join(format!("many-{n}.json"));
        let (peak, code, json) = json_run(
            &report,
            &[
                "--extend-select",
                "equivalent-variants",
                root.to_str().unwrap(),
            ],
        );
        assert_eq!(code, std::process::ExitCode::SUCCESS);
        let listed = json["diagnostics"].as_array().unwrap();
        let listed_in_b = listed
            .iter()
            .filter(|d| d["path"].as_str().unwrap().ends_with("b.txt"))
            .count();
        assert_eq!(listed.len(), listed_in_b, "every finding is in b.txt");
        assert_eq!(listed_in_b, irilint::check::MAX_LISTED.min(n));
        let unlisted = json["unlisted"].as_array().map_or(&[][..], Vec::as_slice);
        let counted: Vec<(&str, &str, u64)> = unlisted
            .iter()
            .map(|u| {
                let path = u["path"].as_str().unwrap();
                (
                    &path[path.len() - 5..],
                    u["rule"].as_str().unwrap(),
                    u["count"].as_u64().unwrap(),
                )
            })
            .collect();
        let more = n.saturating_sub(irilint::check::MAX_LISTED) as u64;
        assert_eq!(counted, [("b.txt", "equivalent-variants", more)]);
        assert_eq!(json["summary"]["infos"], n);
        peak
    };
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    // Four times as many IRIs, each size just under a power of two, where the lists that
    // double as they grow are as full at both.
    let (small, large) = (one.install(|| run(8_000)), one.install(|| run(32_000)));
    let per_iri = large.saturating_sub(small) / 24_000;
    eprintln!(
        "a file of many findings: peak {small} at 8,000, {large} at 32,000: {per_iri} an IRI"
    );
    // Each file's absolute IRIs are no longer held while it is checked (about 200 bytes each,
    // before: 198 bytes an IRI here, 119 now): what is left is their text and the places read
    // again, put aside.
    assert!(
        per_iri <= 160,
        "{per_iri} bytes more at the peak per IRI of each file (at most 160)"
    );
}

/// Files of [`LINES`] lines each of two IRIs: the `k`-th file writes its own resources as
/// they are and the `k - 1`-th's another way, so that every resource but the first file's and
/// the last's is written two ways, one finding each (on the second spelling, the first one
/// related).
const LINES: usize = 200;

fn written_two_ways(dir: &Path, n: usize) -> Vec<Entry> {
    let root = dir.join(format!("two-ways-{n}"));
    std::fs::create_dir(&root).unwrap();
    for k in 0..n {
        let text: String = (0..LINES)
            .map(|i| {
                let before = k as i64 - 1;
                format!("see http://example.org/{k}/{i} and HTTP://example.org/{before}/{i}\n")
            })
            .collect();
        std::fs::write(root.join(format!("f{k:04}.txt")), text).unwrap();
    }
    let selection = Selection::from_selectors(&["equivalent-variants"], &[], &[]).unwrap();
    let settings = std::sync::Arc::new(FileSettings {
        selection,
        ..FileSettings::default()
    });
    (0..n)
        .map(|k| Entry {
            input: Input::File {
                path: root.join(format!("f{k:04}.txt")),
                explicit: false,
            },
            settings: settings.clone(),
        })
        .collect()
}

/// The plans, the places read again and the findings of `equivalent-variants` are put aside
/// in temporary files past a budget and read back a file at a time when it is reported: a
/// project where every resource is written two ways holds no finding per resource (before:
/// about 1.7 KB each until its file was reported, with its plan and its places read again;
/// 1,000 files of 200 such lines took 350 MB).
fn findings_are_put_aside_until_their_files_are_reported(dir: &Path) {
    // Records, and bytes of each kind put aside, held: 512 KiB each.
    const HELD: usize = 1 << 14;
    let selection = Selection::from_selectors(&["equivalent-variants"], &[], &[]).unwrap();
    let options = CheckOptions::new(&selection);
    let load = LoadOptions::default();
    let run = |n: usize| {
        let inputs = written_two_ways(dir, n);
        let per_file = |loaded: check::Loaded, settings: &FileSettings| {
            check::check_with(&loaded.source, settings, &options)
        };
        peak_of(|| {
            let project = check::first_pass_held(&inputs, &load, &per_file, |_| {}, HELD);
            assert!(project.failed().is_none() && project.changed().is_empty());
            // The second pass: each file reported in turn, its findings dropped once counted.
            let mut found = 0;
            for (k, entry) in inputs.iter().enumerate() {
                let Input::File { path, .. } = &entry.input else {
                    unreachable!()
                };
                let mut file = FileOutcome {
                    path: path.display().to_string(),
                    ..FileOutcome::default()
                };
                let _ = project.add_to(&mut file, &options);
                let expected = if k == 0 { 0 } else { LINES };
                assert_eq!(file.diagnostics.len(), expected, "{}", file.path);
                if let Some(d) = file.diagnostics.last() {
                    let written = format!("`HTTP://example.org/{}/{}`", k - 1, LINES - 1);
                    assert!(d.message.contains(&written), "{}", d.message);
                    let column = format!("see http://example.org/{k}/{} and ", LINES - 1).len() + 1;
                    assert_eq!((d.start.line, d.start.column), (LINES, column));
                    assert!(
                        d.related[0]
                            .path
                            .as_deref()
                            .unwrap()
                            .ends_with(&format!("f{:04}.txt", k - 1)),
                        "{:?}",
                        d.related
                    );
                }
                found += file.diagnostics.len();
            }
            found
        })
    };
    // On one thread: with more, the files checked ahead of the one reported (at most 64, the
    // run's own bound, `ORDER_WINDOW`) hold their outcomes, more of them among 80 files than
    // among 20, which is not what is measured here.
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let (small, found_small) = one.install(|| run(20));
    let (large, found_large) = one.install(|| run(80));
    assert_eq!((found_small, found_large), (19 * LINES, 79 * LINES));
    let per_finding = large.saturating_sub(small) / (found_large - found_small);
    eprintln!(
        "every resource written two ways: peak {small} at {found_small} findings, {large} at {found_large}: {per_finding} a finding"
    );
    assert!(
        per_finding <= 32,
        "{per_finding} bytes more at the peak per finding added (at most 32)"
    );
    assert!(
        large <= 4 << 20,
        "{large} bytes at the peak for {found_large} findings (at most 4 MiB)"
    );
}

/// With standard input among the inputs, the run keeps it in a temporary file and reads it
/// again there, as it reads files again: it does not hold every file's outcome to the end
/// (before: tens of kilobytes per file of findings, as many files more, as much more memory).
#[cfg(unix)]
fn stdin_among_the_inputs_is_read_again_from_a_temporary_file(dir: &Path) {
    use std::os::fd::AsRawFd;
    let peak = |n: usize| {
        let root = dir.join(format!("stdin-{n}"));
        std::fs::create_dir(&root).unwrap();
        // Each file: 20 IRIs with two findings each (a bidi control, a fixable escape).
        let text: String = (0..20)
            .map(|i| format!("see http://example.org/{i}/a%7e\u{202E} here\n"))
            .collect();
        for k in 0..n {
            std::fs::write(root.join(format!("f{k:04}.txt")), &text).unwrap();
        }
        let piped = dir.join(format!("stdin-{n}.txt"));
        std::fs::write(&piped, "see HTTP://example.org/0/a%7e\u{202E} here\n").unwrap();
        let file = std::fs::File::open(&piped).unwrap();
        // Standard input is the file (this test binary runs one test).
        // SAFETY: both descriptors are open; descriptor 0 is replaced.
        assert!(unsafe { libc::dup2(file.as_raw_fd(), 0) } == 0);
        let report = dir.join(format!("stdin-{n}.json"));
        let (peak, code, json) = json_run(
            &report,
            &[
                "--extend-select",
                "equivalent-variants,percent-encoded-unreserved",
                "-",
                root.to_str().unwrap(),
            ],
        );
        assert_eq!(code, std::process::ExitCode::from(1));
        let from_stdin = json["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["path"] == "-" && d["rule"] == "equivalent-variants")
            .count();
        assert_eq!(from_stdin, 1, "standard input's IRI is written another way");
        assert_eq!(json["summary"]["files"], n + 1);
        peak
    };
    // On one thread: with more, the files checked ahead of the one reported (at most 64, the
    // run's own bound) hold their findings, as many as 14 files more among 200 than among 50,
    // which made this measure vary from 300 to more than 4,096 bytes a file.
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let (small, large) = (one.install(|| peak(50)), one.install(|| peak(200)));
    let per_file = large.saturating_sub(small) / 150;
    eprintln!(
        "standard input and files: peak {small} with 50 files, {large} with 200: {per_file} a file"
    );
    assert!(
        per_file <= 4096,
        "{per_file} bytes more at the peak per file added (at most 4,096)"
    );
}

#[cfg(not(unix))]
fn stdin_among_the_inputs_is_read_again_from_a_temporary_file(_: &Path) {}

/// Resources written two ways in [`one_large_file_holds_no_record_per_iri`]'s file, whatever
/// its size: the findings, and what they hold, are the same at both sizes.
const TWO_WAYS: usize = 1_000;

/// One file of `n` absolute IRIs, [`TWO_WAYS`] of whose resources are written a second way
/// further on, checked by `irilint check` (on one thread) with and without
/// `equivalent-variants`: the peaks, and the file's size.
fn one_large_file(dir: &Path, n: usize) -> (usize, usize, usize) {
    let root = dir.join(format!("large-{n}"));
    std::fs::create_dir(&root).unwrap();
    let mut text: String = (0..n)
        .map(|i| format!("see http://example.org/{i}/p here\n"))
        .collect();
    let step = n / TWO_WAYS;
    for k in 0..TWO_WAYS {
        text.push_str(&format!("and HTTP://example.org/{}/p\n", k * step));
    }
    let path = root.join("big.txt");
    std::fs::write(&path, &text).unwrap();
    let run = |rules: &str| {
        let report = dir.join(format!("large-{n}-{rules}.json"));
        let (peak, code, json) = json_run(&report, &["--select", rules, path.to_str().unwrap()]);
        assert_ne!(code, std::process::ExitCode::from(2), "{rules}");
        let found = variants_found(&json);
        (
            peak,
            found.len(),
            found.first().map(|d| d["message"].clone()),
        )
    };
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let (with, found, first) =
        one.install(|| run("equivalent-variants,percent-encoded-unreserved"));
    assert_eq!(found, TWO_WAYS);
    let first = first.unwrap();
    assert!(
        first
            .as_str()
            .unwrap()
            .contains("written 2 ways in 2 places"),
        "{first}"
    );
    let (without, none, _) = one.install(|| run("percent-encoded-unreserved"));
    assert_eq!(none, 0);
    (with, without, text.len())
}

/// `equivalent-variants` keeps no record of each IRI of the file being checked: each IRI's
/// hashes are handed on into a temporary file as it is checked, and when the file is read
/// again only the places of resources written two ways are taken (before: each absolute IRI's
/// normal form, spelling and place, about 200 bytes, while the file was checked; a 20 MB
/// file of a million IRIs took 185 MB with the rule, 29 MB without, over the bound of 90 MB).
fn one_large_file_holds_no_record_per_iri(dir: &Path) {
    let (small, large) = (50_000, 200_000);
    let (with_small, without_small, _) = one_large_file(dir, small);
    let (with_large, without_large, bytes) = one_large_file(dir, large);
    let slope = |a: usize, b: usize| b.saturating_sub(a) / (large - small);
    let (with, without) = (
        slope(with_small, with_large),
        slope(without_small, without_large),
    );
    eprintln!(
        "one large file: with equivalent-variants {with_small} at {small} IRIs, {with_large} at \
         {large}: {with} an IRI; without, {without_small} and {without_large}: {without} an IRI"
    );
    assert!(
        with <= without + 8,
        "{with} bytes an IRI at the peak with equivalent-variants, {without} without (at most 8 more)"
    );
    // The memory bound, twice the largest file and 50 MB, with room to spare: within twice the
    // file and 8 MiB.
    let bound = 2 * bytes + (8 << 20);
    assert!(
        with_large <= bound,
        "{with_large} bytes at the peak for a file of {bytes} bytes (at most {bound})"
    );
}

/// Two inputs shown with one path (a caller may name a file twice): which of them a document
/// read again is, only the run's order says, so it keeps its variants for the run to resolve;
/// the findings are those made with every file held.
fn a_path_two_files_share_is_read_by_the_run_order(dir: &Path) {
    let root = dir.join("shared-path");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(
        root.join("a.md"),
        "<http://example.org/~u> and <HTTP://f.example/>\n",
    )
    .unwrap();
    std::fs::write(
        root.join("b.md"),
        "<http://example.org/%7Eu> and <http://f.example/>\n",
    )
    .unwrap();
    let selection = Selection::from_selectors(&["equivalent-variants"], &[], &[]).unwrap();
    let settings = std::sync::Arc::new(FileSettings {
        selection: selection.clone(),
        ..FileSettings::default()
    });
    let entry = |name: &str| Entry {
        input: Input::File {
            path: root.join(name),
            explicit: true,
        },
        settings: settings.clone(),
    };
    let inputs = [entry("a.md"), entry("b.md"), entry("a.md")];
    let options = CheckOptions::new(&selection);
    let load = LoadOptions::default();
    let shown = |path: &str, d: &irilint::diagnostic::Diagnostic| {
        let related: Vec<String> = d
            .related
            .iter()
            .map(|r| format!("{:?}:{}:{}", r.path, r.start.line, r.start.column))
            .collect();
        let (line, column) = (d.start.line, d.start.column);
        format!("{path}:{line}:{column} {} {related:?}", d.message)
    };
    let held = check::run(&inputs, &load, &options);
    let mut expected: Vec<String> = held
        .files
        .iter()
        .flat_map(|f| f.diagnostics.iter().map(|d| shown(&f.path, d)))
        .collect();
    let per_file = |loaded: check::Loaded, settings: &FileSettings| {
        check::check_with(&loaded.source, settings, &options)
    };
    let project = check::first_pass_held(&inputs, &load, &per_file, |_| {}, 1);
    assert!(project.failed().is_none());
    assert!(project.changed().is_empty(), "{:?}", project.changed());
    // A path's findings are all added to the first file shown with it: compared as a whole.
    let mut streamed = Vec::new();
    for f in &held.files {
        let mut again = FileOutcome {
            path: f.path.clone(),
            ..FileOutcome::default()
        };
        project.add_to(&mut again, &options).unwrap();
        streamed.extend(again.diagnostics.iter().map(|d| shown(&f.path, d)));
    }
    expected.sort();
    streamed.sort();
    assert_eq!(expected.len(), 2, "{expected:#?}");
    assert_eq!(streamed, expected);
}
