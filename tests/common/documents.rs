//! Documents for the tests that read a format in chunks or parts and compare with the whole
//! reading: the files of a format under a directory, and synthetic documents made of sections.

use std::path::{Path, PathBuf};

/// The UTF-8 files under `dir` (hidden directories and `target` left out) that `wanted`
/// accepts, with their text, in path order. (Some fixtures are in legacy encodings on purpose:
/// they are left out.)
pub fn under(dir: &Path, wanted: &dyn Fn(&Path) -> bool) -> Vec<(PathBuf, String)> {
    let mut paths = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                if !name.starts_with('.') && name != "target" && name != "node_modules" {
                    dirs.push(path);
                }
            } else if wanted(&path) {
                paths.push(path);
            }
        }
    }
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
        .collect()
}

/// `agrees` of each file, and of all of them as one document (each followed by a line end):
/// the sum of what it returns.
pub fn each_and_all(files: &[(PathBuf, String)], agrees: &dyn Fn(&str, &str) -> usize) -> usize {
    let mut all = String::new();
    let mut sum = 0;
    for (path, text) in files {
        sum += agrees(&path.display().to_string(), text);
        all.push_str(text);
        all.push('\n');
    }
    sum + agrees("all of them", &all)
}

/// `sections` in `rounds` rounds, each preceded by another section in each round, so that
/// each section follows each other one somewhere.
pub fn shuffled(sections: &[&str], rounds: usize) -> String {
    let mut doc = String::new();
    for round in 0..rounds {
        for (k, s) in sections.iter().enumerate() {
            doc.push_str(sections[(k * (round + 1) + round) % sections.len()]);
            doc.push_str(s);
        }
    }
    doc
}

/// Lines `line(0)`, `line(1)`, … up to at least `size` bytes: a document of distinct names.
pub fn numbered(size: usize, line: impl Fn(usize) -> String) -> Vec<u8> {
    let mut doc = String::with_capacity(size + 64);
    let mut i = 0;
    while doc.len() < size {
        doc.push_str(&line(i));
        i += 1;
    }
    doc.into_bytes()
}
