//! The CI snippets of the book's workflow pages (`docs/src/workflows/ci.md`, `pre-commit.md`)
//! are what their consumers accept: the GitHub Actions workflow
//! and the GitLab CI job against those services' schemas (`check-jsonschema`'s bundled
//! `vendor.github-workflows` and `vendor.gitlab-ci`), the pre-commit configurations with
//! `pre-commit validate-config`, and `.pre-commit-hooks.yaml` with `validate-manifest`. And they
//! install a release without compiling, the release of Cargo.toml's version: the GitHub job
//! uses this repository's action at the tag `vX.Y.Z` with inputs `action.yml` declares, the
//! GitLab job pip installs `irilint==X.Y.Z`, the pre-commit hook is this repository at `rev:
//! vX.Y.Z` (the tag `.github/workflows/release.yml` is started by). The README's snippets, one
//! per workflow, are copies of the book's, so what holds for these holds for them.

mod consumers;

use std::path::Path;
use std::process::Command;

fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The fenced blocks of `lang` in `text`, in order.
fn blocks(text: &str, lang: &str) -> Vec<String> {
    let fence = format!("```{lang}\n");
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find(&fence) {
        let body = &rest[open + fence.len()..];
        let close = body.find("```").expect("a closed block");
        blocks.push(body[..close].to_string());
        rest = &body[close + 3..];
    }
    blocks
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo_root().join(path)).unwrap()
}

/// The YAML blocks of the book's "Use in CI" page (GitHub, GitLab), then of its "Pre-commit
/// hook" page (the published hook, a local one).
fn snippets() -> Vec<String> {
    let mut all = blocks(&read("docs/src/workflows/ci.md"), "yaml");
    all.extend(blocks(&read("docs/src/workflows/pre-commit.md"), "yaml"));
    all
}

/// Each snippet of the README's "Workflows" section is one of the book's workflow pages, to
/// the byte: the book's are the ones tested here, and the README's must not drift from them.
#[test]
fn the_readme_snippets_are_the_books() {
    let readme = read("README.md");
    let start = readme
        .find("\n## Workflows\n")
        .expect("the README's Workflows section");
    let end = start + 1 + readme[start + 1..].find("\n## ").expect("its end");
    let section = &readme[start..end];
    let mut book = snippets();
    book.extend(blocks(&read("docs/src/workflows/editor.md"), "lua"));
    let mut shown = 0;
    for lang in ["yaml", "lua", "toml", "json", "sh"] {
        for block in blocks(section, lang) {
            assert!(
                book.contains(&block),
                "the README's {lang} snippet is not one of the book's workflow pages:\n{block}"
            );
            shown += 1;
        }
    }
    // One per workflow: pre-commit, CI, editor.
    assert_eq!(shown, 3, "{section}");
    assert!(section.contains("rev: v"), "{section}");
    assert!(section.contains("runs-on:"), "{section}");
    assert!(section.contains("\"lsp\""), "{section}");
}

/// Runs `tool args… file` on `text` saved as `name`; fails with its output unless it succeeds.
fn accepts(tool: &Path, args: &[&str], name: &str, text: &str) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, text).unwrap();
    let out = Command::new(tool)
        .args(args)
        .arg(&file)
        .current_dir(repo_root())
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{} {args:?} refuses\n{text}\n{}{}",
        tool.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_workflow_and_the_gitlab_job_match_their_schemas() {
    let Some(tool) = consumers::require(consumers::check_jsonschema(), "check-jsonschema") else {
        return;
    };
    let blocks = snippets();
    assert_eq!(blocks.len(), 4, "{blocks:#?}");
    accepts(
        &tool,
        &["--builtin-schema", "vendor.github-workflows"],
        "irilint.yml",
        &blocks[0],
    );
    assert!(blocks[1].contains("codequality:"), "{}", blocks[1]);
    assert!(blocks[1].contains("junit:"), "{}", blocks[1]);
    accepts(
        &tool,
        &["--builtin-schema", "vendor.gitlab-ci"],
        ".gitlab-ci.yml",
        &blocks[1],
    );
    // The validator refuses what is wrong (without this, one that accepts anything would pass).
    let broken = blocks[0].replace("runs-on:", "runs_on:");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("broken.yml");
    std::fs::write(&file, broken).unwrap();
    let out = Command::new(&tool)
        .args(["--builtin-schema", "vendor.github-workflows"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn the_pre_commit_snippets_and_the_hook_manifest_are_valid() {
    let Some(pre_commit) = consumers::require(consumers::pre_commit(), "pre-commit") else {
        return;
    };
    let blocks = snippets();
    assert_eq!(blocks.len(), 4, "{blocks:#?}");
    for block in &blocks[2..] {
        assert!(block.contains("id: irilint"), "{block}");
        accepts(
            &pre_commit,
            &["validate-config"],
            ".pre-commit-config.yaml",
            block,
        );
    }
    let manifest = std::fs::read_to_string(repo_root().join(".pre-commit-hooks.yaml")).unwrap();
    accepts(
        &pre_commit,
        &["validate-manifest"],
        ".pre-commit-hooks.yaml",
        &manifest,
    );
    // The local hook reads the same files as the published one.
    let files = |text: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix("files: ").map(str::to_string))
            .expect("a files pattern")
    };
    assert_eq!(files(&blocks[3]), files(&manifest));
}

/// The irilint commands of a snippet's script (`- irilint ...` lines), as argument lists.
fn irilint_commands(block: &str) -> Vec<Vec<String>> {
    block
        .lines()
        .filter_map(|l| l.trim().strip_prefix("- irilint "))
        .map(|rest| rest.split_whitespace().map(str::to_string).collect())
        .collect()
}

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Cargo.toml's `repository`, the one the release workflow checks it is run from.
fn repository() -> String {
    let cargo: toml::Table =
        toml::from_str(&std::fs::read_to_string(repo_root().join("Cargo.toml")).unwrap()).unwrap();
    cargo["package"]["repository"].as_str().unwrap().to_string()
}

/// The inputs `action.yml` declares.
fn action_inputs() -> Vec<String> {
    let action = std::fs::read_to_string(repo_root().join("action.yml")).unwrap();
    let start = action.find("\ninputs:\n").expect("inputs");
    action[start + 9..]
        .lines()
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .filter_map(|l| l.strip_prefix("  ")?.strip_suffix(':'))
        .filter(|name| !name.starts_with(' '))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_gitlab_job_fails_on_its_own_example_and_says_why_and_passes_a_clean_project() {
    let blocks = snippets();
    let job = &blocks[1];
    let commands = irilint_commands(job);
    assert!(commands.len() >= 2, "{job}");
    for (document, failing) in [
        ("[x](https://example.org/invoice-\u{202E}gpj.exe)\n", true),
        ("[x](https://example.org/invoice.pdf)\n", false),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("docs")).unwrap();
        std::fs::write(dir.path().join("docs/index.md"), document).unwrap();
        let mut failed_at = None;
        for (i, args) in commands.iter().enumerate() {
            let out = Command::new(env!("CARGO_BIN_EXE_irilint"))
                .args(args)
                .current_dir(dir.path())
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            // Every report goes to its file: the CI log has only stderr, which must say why.
            assert!(out.stdout.is_empty(), "{args:?}");
            if failing {
                assert!(
                    stderr.contains("Found 1 error in 1 file"),
                    "{args:?}: {stderr}"
                );
            } else {
                assert!(stderr.contains("No problems found"), "{args:?}: {stderr}");
            }
            if !out.status.success() {
                assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
                failed_at.get_or_insert(i);
            }
        }
        // The job fails (at its last command, so the reports are all written) only on an error.
        assert_eq!(
            failed_at,
            failing.then_some(commands.len() - 1),
            "{document}"
        );
        for report in ["gl-code-quality-report.json", "irilint-junit.xml"] {
            assert!(job.contains(report), "{job}");
            assert!(dir.path().join(report).is_file(), "{report} written");
        }
    }
}

#[test]
fn the_jobs_install_the_release_of_this_version_without_compiling() {
    let blocks = snippets();
    assert_eq!(blocks.len(), 4, "{blocks:#?}");
    let repository = repository();
    let slug = repository
        .strip_prefix("https://github.com/")
        .expect("a GitHub repository");

    // GitHub: this repository's action, at this version's tag, with inputs it declares.
    let github = &blocks[0];
    assert!(
        github.contains(&format!("uses: {slug}@v{VERSION}\n")),
        "{github}"
    );
    let inputs = action_inputs();
    assert!(inputs.contains(&"paths".to_string()), "{inputs:?}");
    let with: Vec<&str> = github
        .lines()
        .skip_while(|l| !l.trim_start().starts_with(&format!("- uses: {slug}@")))
        .skip(1)
        .skip_while(|l| l.trim() == "with:")
        .take_while(|l| l.starts_with("          "))
        .filter_map(|l| l.trim().split_once(':').map(|(k, _)| k))
        .collect();
    assert!(!with.is_empty(), "{github}");
    for key in with {
        assert!(
            inputs.iter().any(|i| i == key),
            "action.yml has no input {key}"
        );
    }
    // The action annotates and uploads the SARIF report the section describes.
    let action = std::fs::read_to_string(repo_root().join("action.yml")).unwrap();
    assert!(action.contains("github/codeql-action/upload-sarif@"));
    assert!(action.contains("irilint check --format github"));
    assert!(action.contains("irilint check --format sarif"));

    // GitLab: the wheel of this version.
    let gitlab = &blocks[1];
    assert!(
        gitlab.contains(&format!("- pip install irilint=={VERSION}\n")),
        "{gitlab}"
    );
    for block in &blocks[..2] {
        assert!(!block.contains("cargo"), "{block}");
    }

    // pre-commit: this repository at the tag of this version.
    let hook = &blocks[2];
    assert!(hook.contains(&format!("- repo: {repository}\n")), "{hook}");
    assert!(hook.contains(&format!("rev: v{VERSION}\n")), "{hook}");
}
