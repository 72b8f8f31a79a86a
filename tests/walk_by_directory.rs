//! A walked directory's files take the resolution of the first of them when every file there
//! resolves alike (`Resolved::same_in_directory`): the walk must give each file exactly what
//! resolving it alone gives, whatever the configuration, and resolve once per directory when
//! nothing depends on a file's name.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use irilint::config::{CliSettings, Discovery, Resolver};
use irilint::source::Format;
use irilint::walk::{self, Input, WalkOptions};
use irilint::work::{Work, measure};

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// Every file and directory under `dir`, recursively (symbolic links not followed).
fn everything(dir: &Path, files: &mut Vec<PathBuf>, dirs: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let t = e.file_type().unwrap();
        if t.is_dir() {
            dirs.push(e.path());
            everything(&e.path(), files, dirs);
        } else if t.is_file() {
            files.push(e.path());
        }
    }
}

/// The files the walk of `root` lists, each with its settings, and how many paths it resolved.
fn walked(resolver: &Arc<Resolver>, root: &Path) -> (BTreeMap<PathBuf, usize>, u64) {
    let (walk, resolved) = measure(Work::SettingsResolved, || {
        walk::collect(&[root.to_path_buf()], resolver, WalkOptions::default()).unwrap()
    });
    assert!(walk.errors.is_empty(), "{:?}", walk.errors);
    let files = walk
        .inputs
        .iter()
        .map(|e| match &e.input {
            Input::File { path, .. } => (path.clone(), Arc::as_ptr(&e.settings) as usize),
            Input::Stdin => panic!("no standard input"),
        })
        .collect();
    (files, resolved)
}

/// What resolving each path alone gives: the readable files not excluded, nor under an
/// excluded directory, each with its settings (the same resolver: equal settings are one
/// `Arc`).
fn one_by_one(resolver: &Resolver, root: &Path) -> BTreeMap<PathBuf, usize> {
    let (mut files, mut dirs) = (Vec::new(), Vec::new());
    everything(root, &mut files, &mut dirs);
    let excluded_dir = |d: &Path| {
        d.strip_prefix(root).unwrap().components().count() > 0
            && resolver.resolve_walked(d, true).unwrap().excluded
    };
    let mut out = BTreeMap::new();
    for f in files {
        let hidden_or_vcs = f
            .strip_prefix(root)
            .unwrap()
            .components()
            .any(|c| c.as_os_str().as_encoded_bytes().starts_with(b"."));
        if hidden_or_vcs {
            continue;
        }
        if f.ancestors()
            .skip(1)
            .take_while(|a| a.starts_with(root))
            .any(excluded_dir)
        {
            continue;
        }
        let r = resolver.resolve_walked(&f, false).unwrap();
        let readable = r.settings.format.is_some() || Format::from_path(&f).is_some();
        if readable && !r.excluded {
            out.insert(f, Arc::as_ptr(&r.settings) as usize);
        }
    }
    out
}

/// A tree whose directories mix files and subdirectories (a file's directory is met again
/// after a subdirectory's files), with files irilint does not read.
fn tree(root: &Path) {
    for d in ["", "a/", "a/b/", "a/b/c/", "m/", "z/"] {
        for name in ["0.md", "1.html", "k.txt", "n.png", "q.min.html", "zz.rst"] {
            write(root, &format!("{d}{name}"), "see https://example.org/x\n");
        }
    }
    write(
        root,
        "a/node_modules/pkg/readme.md",
        "https://example.org/\n",
    );
    write(
        root,
        "a/build/out.html",
        "<a href=\"https://example.org/\">x</a>\n",
    );
    write(root, "m/drafts/d.md", "https://example.org/d\n");
}

/// Each configuration, written at the root (and one in a subdirectory), with whether every
/// file of a directory resolves alike under it.
const CONFIGS: [(&str, bool); 7] = [
    ("", true),
    ("exclude = [\"build/\", \"drafts/  \"]\n", true),
    ("extend-exclude = [\"*.min.html\"]\n", false),
    ("extend-exclude = [\"drafts/\", \"0.md\"]\n", false),
    (
        "[[overrides]]\nfiles = [\"*.txt\"]\nignore = [\"not-nfc\"]\n",
        false,
    ),
    ("[input-format]\n\"*.rst\" = \"text\"\n", false),
    (
        "ignore = [\"not-nfc\"]\nextend-exclude = [\"build/\"]\n",
        true,
    ),
];

#[test]
fn each_walked_file_gets_what_resolving_it_alone_gives() {
    for (i, (config, alike)) in CONFIGS.iter().enumerate() {
        for nested in [false, true] {
            let tmp = tempfile::tempdir().unwrap();
            let root = tmp.path().canonicalize().unwrap();
            tree(&root);
            if !config.is_empty() {
                write(&root, "irilint.toml", config);
            }
            if nested {
                // A directory with its own configuration: its files must not take the
                // resolution of its parent's, nor the other way round.
                write(&root, "a/b/irilint.toml", "extend-exclude = [\"zz.rst\"]\n");
            }
            let resolver =
                Arc::new(Resolver::new(Discovery::Nearest, CliSettings::default()).unwrap());
            let (walked, resolutions) = walked(&resolver, &root);
            let expected = one_by_one(&resolver, &root);
            assert_eq!(
                walked, expected,
                "configuration {i} {config:?}, nested {nested}"
            );
            // Each directory whose parent is entered is resolved once (whether to enter it);
            // then each directory entered holding files, once when they resolve alike.
            let (mut files, mut dirs) = (Vec::new(), Vec::new());
            everything(&root, &mut files, &mut dirs);
            let excluded = |d: &Path| resolver.resolve_walked(d, true).unwrap().excluded;
            let parent_entered = |d: &Path| {
                d.ancestors()
                    .skip(1)
                    .take_while(|a| *a != root)
                    .all(|a| !excluded(a))
            };
            let asked = dirs.iter().filter(|d| parent_entered(d)).count() as u64;
            let holding: std::collections::BTreeSet<&Path> = files
                .iter()
                .map(|f| f.parent().unwrap())
                .filter(|d| *d == root || (parent_entered(d) && !excluded(d)))
                .collect();
            let file_dirs = holding.len() as u64;
            if *alike && !nested {
                // Once per directory entered, once per directory holding files.
                assert_eq!(
                    resolutions,
                    asked + file_dirs,
                    "configuration {i} {config:?}"
                );
            } else if !alike {
                assert!(
                    resolutions > asked + file_dirs,
                    "configuration {i} {config:?}"
                );
            }
        }
    }
}
