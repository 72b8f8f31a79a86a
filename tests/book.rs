//! The reference is a book (`docs/`, mdBook) whose rule pages come from `rules/*.md`, the files
//! `irilint explain` prints: each rule page is one `{{#include}}` of its rule's file, and the
//! book's SUMMARY lists exactly the rules of the registry, in catalog order. The book builds
//! (with the mdbook `.ci/run` installs; in CI a missing mdbook fails the test), and the
//! project's own README, book and rule docs pass its own linter.

mod consumers;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: impl AsRef<Path>) -> String {
    let path = repo_root().join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The rule ids of the registry, in catalog order, as `irilint rules --format json` gives them.
fn registry() -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_irilint"))
        .args(["rules", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules = json
        .as_array()
        .or_else(|| json["rules"].as_array())
        .expect("a list of rules");
    let ids: Vec<String> = rules
        .iter()
        .map(|r| r["id"].as_str().expect("an id").to_string())
        .collect();
    assert!(ids.len() > 30, "{ids:?}");
    ids
}

/// The pages SUMMARY.md links, relative to `docs/src`, in order.
fn summary_links() -> Vec<String> {
    read("docs/src/SUMMARY.md")
        .lines()
        .filter_map(|l| {
            let rest = &l[l.find("](")? + 2..];
            Some(rest[..rest.find(')')?].to_string())
        })
        .collect()
}

#[test]
fn the_summary_lists_a_page_for_every_rule_and_no_other() {
    let in_summary: Vec<String> = summary_links()
        .iter()
        .filter_map(|l| l.strip_prefix("rules/")?.strip_suffix(".md"))
        .map(str::to_string)
        .collect();
    assert_eq!(
        in_summary,
        registry(),
        "docs/src/SUMMARY.md must list `rules/ID.md` for each rule of `irilint rules`, in its order"
    );
}

#[test]
fn each_rule_page_is_its_rule_doc_and_nothing_else() {
    let ids = registry();
    let mut pages = BTreeSet::new();
    for entry in std::fs::read_dir(repo_root().join("docs/src/rules")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        pages.insert(name);
    }
    let expected: BTreeSet<String> = ids.iter().map(|id| format!("{id}.md")).collect();
    assert_eq!(pages, expected, "docs/src/rules/ holds one page per rule");
    for id in &ids {
        assert!(repo_root().join(format!("rules/{id}.md")).is_file(), "{id}");
        assert_eq!(
            read(format!("docs/src/rules/{id}.md")),
            format!("{{{{#include ../../../rules/{id}.md}}}}\n"),
            "the page of {id} is one include of rules/{id}.md (one source)"
        );
    }
}

/// Every page of `docs/src` is reachable from SUMMARY.md, and every link there is a page.
#[test]
fn every_page_is_in_the_summary() {
    let links: BTreeSet<String> = summary_links().into_iter().collect();
    let mut pages = markdown_files("docs/src");
    pages.remove("SUMMARY.md");
    assert_eq!(links, pages);
}

/// `mdbook build docs` into a temporary directory: it succeeds, every rule's page holds its
/// rule doc (its one-line summary, the `> ` line `irilint rules` shows), and the front page
/// holds the README's part it includes.
#[test]
fn the_book_builds_with_every_rule_page() {
    let Some(mdbook) = consumers::require(consumers::mdbook(), "mdbook") else {
        return;
    };
    let out_dir = tempfile::tempdir().unwrap();
    let out = Command::new(&mdbook)
        .arg("build")
        .arg(repo_root().join("docs"))
        .arg("--dest-dir")
        .arg(out_dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "mdbook build failed:\n{stderr}");
    assert!(
        !stderr.contains("ERROR") && !stderr.contains("WARN"),
        "mdbook complained:\n{stderr}"
    );
    let html = |page: &str| -> String {
        let path: PathBuf = out_dir.path().join(page);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    for id in registry() {
        let page = html(&format!("rules/{id}.html"));
        // The rule's own heading, and each section of its doc, rendered.
        assert!(
            page.contains(&format!("<h1 id=\"{id}\">")),
            "rules/{id}.html does not show rules/{id}.md"
        );
        for heading in read(format!("rules/{id}.md"))
            .lines()
            .filter_map(|l| l.strip_prefix("## "))
        {
            assert!(
                page.contains(&format!(">{heading}</a></h2>")),
                "rules/{id}.html lacks the section {heading}"
            );
        }
    }
    let index = html("index.html");
    assert!(
        index.contains("Hidden characters are never printed raw"),
        "the front page lacks the README's part it includes"
    );
}

/// The project lints its own documentation with the default rules: the README, the book and the
/// rule docs have no finding (intended examples are suppressed where they stand, with a reason).
#[test]
fn the_readme_the_book_and_the_rule_docs_pass_irilint() {
    let out = Command::new(env!("CARGO_BIN_EXE_irilint"))
        .args(["check", "--color", "never", "--deny-warnings"])
        .args(["README.md", "docs", "rules"])
        .current_dir(repo_root())
        .output()
        .unwrap();
    let output = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0), "{output}");
    // Nothing but the summary, which counts every file: the README, every page of the book,
    // every rule doc.
    let files = 1 + markdown_files("docs").len() + markdown_files("rules").len();
    assert!(files > 90, "{files}");
    assert!(
        output.starts_with(&format!("No problems found in {files} files (")),
        "{output}"
    );
    assert_eq!(output.trim_end().lines().count(), 1, "{output}");
}

/// The `.md` files under `dir` (relative to the repository), as paths relative to it.
fn markdown_files(dir: &str) -> BTreeSet<String> {
    let root = repo_root().join(dir);
    let mut found = BTreeSet::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                let rel = path.strip_prefix(&root).unwrap().to_str().unwrap();
                found.insert(rel.replace('\\', "/"));
            }
        }
    }
    found
}

/// The README's picture of a report (the first `text` block of the part the book's front page
/// includes) is what irilint prints on that fixture, escapes and all.
#[test]
fn the_readme_picture_is_a_real_report() {
    let readme = read("README.md");
    let part = &readme[readme.find("<!-- ANCHOR: catches -->").expect("the anchor")..];
    let open = part.find("```text\n").expect("a picture") + "```text\n".len();
    let picture = &part[open..open + part[open..].find("```").unwrap()];
    let fixture = picture
        .lines()
        .find_map(|l| l.trim().strip_prefix("╭─["))
        .and_then(|l| l.split(':').next())
        .expect("the picture names its file");
    let out = Command::new(env!("CARGO_BIN_EXE_irilint"))
        .args(["check", "--color", "never", fixture])
        .env("NO_COLOR", "1")
        .current_dir(repo_root())
        .output()
        .unwrap();
    let report = String::from_utf8(out.stdout).unwrap();
    // One whole diagnostic: from the report's start or a blank line to a blank line.
    let whole = format!("\n\n{picture}\n");
    assert!(
        format!("\n\n{report}").contains(&whole),
        "the README's picture is not what `irilint check {fixture}` prints:\n{report}"
    );
}

/// Links from the README and the book to this repository's files (`…/blob/main/PATH`,
/// `…/tree/main/DIR`: what works on GitHub, crates.io, PyPI and in the built book alike) name
/// files and directories that exist, and the book's links between its pages name pages.
#[test]
fn links_to_the_repository_and_between_pages_resolve() {
    let prefix = "https://github.com/irilint/irilint/";
    let mut texts = vec![("README.md".to_string(), read("README.md"))];
    for page in markdown_files("docs/src") {
        texts.push((format!("docs/src/{page}"), read(format!("docs/src/{page}"))));
    }
    let mut checked = 0;
    for (name, text) in &texts {
        for (at, _) in text.match_indices(prefix) {
            let rest = &text[at + prefix.len()..];
            let url: &str = &rest[..rest.find([')', ' ', '\n', '>']).unwrap_or(rest.len())];
            let (kind, path) = url.split_once("/main/").expect("a branch");
            let path = repo_root().join(path.split('#').next().unwrap());
            match kind {
                "blob" => assert!(path.is_file(), "{name}: {url}"),
                "tree" => assert!(path.is_dir(), "{name}: {url}"),
                _ => panic!("{name}: {url}"),
            }
            checked += 1;
        }
        // Links between the book's pages: `](page.md)` or `](../page.md#anchor)`.
        if let Some(page) = name.strip_prefix("docs/src/") {
            let dir = Path::new("docs/src")
                .join(page)
                .parent()
                .unwrap()
                .to_path_buf();
            for (at, _) in text.match_indices("](") {
                let rest = &text[at + 2..];
                let target = &rest[..rest.find(')').unwrap_or(0)];
                let file = target.split('#').next().unwrap();
                if file.ends_with(".md") && !file.contains("://") {
                    assert!(
                        repo_root().join(&dir).join(file).is_file(),
                        "{name}: {target}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 80, "{checked}");
}
