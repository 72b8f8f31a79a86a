//! The layers of `src/lib.rs`'s documentation hold: every module imports only from its own layer
//! or the layers below it, and no two files of `src/` import each other, directly or around a
//! circle.
//!
//! An import is any path the code names: `use crate::…` trees (grouped ones expanded), `crate::`,
//! `super::` and `self::` paths written in the code, and paths that start with a child module's
//! name (`use walker::Walker;` in `xml.rs`). Each is resolved to the file of the longest module
//! path it names. Test modules (`#[cfg(test)] mod … { … }`) are left out: a test may use any
//! layer. A file's use of its own ancestors' files (`super::Occurrence` in `extract/html/tags.rs`)
//! is part of one module and counts for the layers but not for the circles: a module's own file
//! holding what its submodules share is how Rust modules are written.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A file of `src/`: its path relative to `src/` and its module path (`["extract", "xml"]`).
struct File {
    rel: String,
    module: Vec<String>,
    text: String,
}

fn files(src: &Path) -> Vec<File> {
    let mut out = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path
                    .strip_prefix(src)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                let mut module: Vec<String> = rel
                    .trim_end_matches(".rs")
                    .split('/')
                    .map(str::to_string)
                    .collect();
                if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                    module.pop();
                }
                let text = std::fs::read_to_string(&path).unwrap();
                out.push(File { rel, module, text });
            }
        }
    }
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    out
}

/// `text` without comments, with every string and character literal emptied, so that neither
/// can look like a path.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let word = |i: usize| i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if !word(i) && raw_string_start(&b[i..]).is_some() {
            let (open, hashes) = raw_string_start(&b[i..]).unwrap();
            i += open;
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            while i < b.len() && !b[i..].starts_with(&close) {
                i += 1;
            }
            i += close.len();
            out.push_str("\"\"");
        } else if b[i] == b'"' || (!word(i) && b[i..].starts_with(b"b\"")) {
            i += if b[i] == b'"' { 1 } else { 2 };
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && char_literal_len(&text[i..]).is_some() {
            i += char_literal_len(&text[i..]).unwrap();
            out.push_str("' '");
        } else {
            let len = text[i..].chars().next().unwrap().len_utf8();
            out.push_str(&text[i..i + len]);
            i += len;
        }
    }
    out
}

/// The length of the opening of a raw string (`r"`, `br##"`) and its number of `#`s.
fn raw_string_start(b: &[u8]) -> Option<(usize, usize)> {
    let at = usize::from(b.first() == Some(&b'b'));
    if b.get(at) != Some(&b'r') {
        return None;
    }
    let hashes = b[at + 1..].iter().take_while(|&&c| c == b'#').count();
    (b.get(at + 1 + hashes) == Some(&b'"')).then_some((at + 2 + hashes, hashes))
}

/// The length of the character literal at the start of `s` (`'a'`, `'\n'`, `'\u{200B}'`), or
/// `None` for a lifetime.
fn char_literal_len(s: &str) -> Option<usize> {
    let rest = &s[1..];
    if let Some(escaped) = rest.strip_prefix('\\') {
        // The escaped character itself may be a quote (`'\''`).
        let first = escaped.chars().next()?;
        let end = first.len_utf8() + escaped[first.len_utf8()..].find('\'')?;
        return (end <= 10).then_some(end + 3);
    }
    let c = rest.chars().next()?;
    rest[c.len_utf8()..]
        .starts_with('\'')
        .then_some(c.len_utf8() + 2)
}

/// `code` without the test modules: `#[cfg(test)]` followed by `mod name {`, up to its closing
/// brace.
fn without_tests(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = rest[at + "#[cfg(test)]".len()..].trim_start();
        let is_mod = after
            .strip_prefix("mod ")
            .and_then(|m| m.find(['{', ';']).map(|e| &m[e..]))
            .filter(|m| m.starts_with('{'));
        match is_mod {
            Some(block) => {
                let mut depth = 0;
                let mut end = block.len();
                for (i, c) in block.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                rest = &block[end..];
            }
            None => {
                out.push_str("#[cfg(test)]");
                rest = &rest[at + "#[cfg(test)]".len()..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Every path of a use tree (`crate::{a::b, c::{d, e as f}}`), each as its segments.
fn use_paths(tree: &str) -> Vec<Vec<String>> {
    fn walk(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
        let tree = tree.trim();
        if let Some(inner) = tree.strip_prefix('{') {
            let inner = inner.strip_suffix('}').unwrap_or(inner);
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        walk(prefix, &inner[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            walk(prefix, &inner[start..], out);
            return;
        }
        match tree.split_once("::") {
            Some((head, rest)) if is_ident(head.trim()) => {
                let mut p = prefix.to_vec();
                p.push(head.trim().to_string());
                walk(&p, rest, out);
            }
            _ => {
                let name = tree.split(" as ").next().unwrap().trim();
                let mut p = prefix.to_vec();
                if is_ident(name) {
                    p.push(name.to_string());
                }
                if !p.is_empty() {
                    out.push(p);
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(&[], tree, &mut out);
    out
}

/// The paths `code` names: its use trees, and the `crate::`, `super::`, `self::` and
/// child-module paths in the rest of the code.
fn named_paths(code: &str, children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut rest = String::new();
    let mut at = 0;
    let words: Vec<(usize, &str)> = code
        .match_indices(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    // `use` statements: from the word `use` to the next `;`.
    let mut prev_end = 0;
    for (i, _) in &words {
        let start = prev_end;
        prev_end = i + 1;
        if &code[start..*i] != "use" || start < at {
            continue;
        }
        let Some(end) = code[*i..].find(';') else {
            continue;
        };
        rest.push_str(&code[at..start]);
        paths.extend(use_paths(&code[*i..*i + end]));
        at = i + end + 1;
    }
    rest.push_str(&code[at..]);
    // Paths in the code: a word followed by `::`, with the words after it.
    let compact: String = rest.split_whitespace().collect::<Vec<_>>().join(" ");
    let compact = compact.replace(" ::", "::").replace(":: ", "::");
    let bytes = compact.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let starts_word = (i == 0
            || !(bytes[i - 1].is_ascii_alphanumeric()
                || bytes[i - 1] == b'_'
                || bytes[i - 1] == b':'))
            && (bytes[i].is_ascii_alphabetic() || bytes[i] == b'_');
        if !starts_word {
            i += 1;
            continue;
        }
        let mut j = i;
        let mut segments = Vec::new();
        loop {
            let s = j;
            while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
                j += 1;
            }
            segments.push(compact[s..j].to_string());
            if compact[j..].starts_with("::")
                && compact[j + 2..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            {
                j += 2;
            } else {
                break;
            }
        }
        if segments.len() > 1
            && (matches!(segments[0].as_str(), "crate" | "super" | "self")
                || children.contains(&segments[0]))
        {
            paths.push(segments);
        }
        i = j.max(i + 1);
    }
    paths
}

/// The import graph between the files of `src`: for each file, the files it names.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files = files(src);
    let by_module: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|f| (f.module.clone(), f.rel.clone()))
        .collect();
    let mut graph = BTreeMap::new();
    for f in &files {
        let children: BTreeSet<String> = by_module
            .keys()
            .filter(|m| m.len() == f.module.len() + 1 && m.starts_with(&f.module))
            .map(|m| m.last().unwrap().clone())
            .collect();
        let code = without_tests(&code_only(&f.text));
        let mut targets = BTreeSet::new();
        for path in named_paths(&code, &children) {
            let mut base: Vec<String> = match path[0].as_str() {
                "crate" => Vec::new(),
                "self" | "super" => f.module.clone(),
                child if children.contains(child) => f.module.clone(),
                _ => continue,
            };
            let mut segments = path.as_slice();
            if segments[0] == "crate" {
                segments = &segments[1..];
            }
            while let Some(first) = segments.first() {
                match first.as_str() {
                    "self" => {}
                    "super" => {
                        base.pop();
                    }
                    _ => break,
                }
                segments = &segments[1..];
            }
            base.extend(segments.iter().cloned());
            let target = (1..=base.len())
                .rev()
                .find_map(|n| by_module.get(&base[..n]));
            if let Some(target) = target.filter(|t| **t != f.rel) {
                targets.insert(target.clone());
            }
        }
        graph.insert(f.rel.clone(), targets);
    }
    graph
}

/// The layers listed in `src/lib.rs`'s documentation, top to bottom: the module paths quoted
/// before the colon of each numbered line of its `# Layers` section.
fn layers(lib: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in lib.lines() {
        let Some(doc) = line.strip_prefix("//!") else {
            continue;
        };
        let doc = doc.trim();
        if doc.starts_with('#') {
            inside = doc == "# Layers";
            continue;
        }
        let numbered = doc
            .split_once(". ")
            .filter(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        if let (true, Some((_, item))) = (inside, numbered) {
            let names = item.split(':').next().unwrap();
            let modules: Vec<String> = names
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect();
            assert!(!modules.is_empty(), "a layer without a module: {line}");
            out.push(modules);
        }
    }
    out
}

/// The layer (0 = top) of the file `rel`: the layer of the longest listed module path that holds
/// it (`fix::model` before `fix`).
fn layer_of(rel: &str, layers: &[Vec<String>]) -> Option<usize> {
    let module = rel.trim_end_matches(".rs").trim_end_matches("/mod");
    let module = module.replace('/', "::");
    layers
        .iter()
        .enumerate()
        .flat_map(|(i, l)| l.iter().map(move |m| (i, m)))
        .filter(|(_, m)| module == **m || module.starts_with(&format!("{m}::")))
        .max_by_key(|(_, m)| m.len())
        .map(|(i, _)| i)
}

fn is_ancestor(ancestor: &str, rel: &str) -> bool {
    let a = ancestor.trim_end_matches(".rs").trim_end_matches("/mod");
    a == "lib" || rel.starts_with(&format!("{a}/"))
}

/// Every circle of `graph` (its strongly connected components of more than one file), leaving
/// out the edges from a file to its ancestors' files.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Tarjan's algorithm, iterative.
    let nodes: Vec<&String> = graph.keys().collect();
    let index_of: BTreeMap<&String, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let succ: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            graph[*n]
                .iter()
                .filter(|t| !is_ancestor(t, n))
                .filter_map(|t| index_of.get(t).copied())
                .collect()
        })
        .collect();
    let n = nodes.len();
    let (mut index, mut low, mut on) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut next, mut out) = (Vec::new(), 0, Vec::new());
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0)];
        while let Some((v, k)) = work.pop() {
            if k == 0 {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on[v] = true;
            }
            if let Some(&w) = succ[v].get(k) {
                work.push((v, k + 1));
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                loop {
                    let w = stack.pop().unwrap();
                    on[w] = false;
                    component.push(nodes[w].clone());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    out.push(component);
                }
            }
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
        }
    }
    out
}

fn src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn every_import_points_to_its_own_layer_or_below() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let layers = layers(&lib);
    assert!(
        layers.len() > 5,
        "src/lib.rs lists its layers under `# Layers`"
    );
    let graph = imports(&src());
    let mut wrong = Vec::new();
    // A name in the list that is no module any more would leave the picture stale.
    for module in layers.iter().flatten() {
        if !graph
            .keys()
            .any(|f| layer_of(f, &[vec![module.clone()]]).is_some())
        {
            wrong.push(format!(
                "src/lib.rs lists `{module}`, which no file of src/ holds"
            ));
        }
    }
    for (file, targets) in &graph {
        if file == "lib.rs" {
            continue; // the crate root declares the modules
        }
        let Some(own) = layer_of(file, &layers) else {
            wrong.push(format!("{file} is in no layer of src/lib.rs"));
            continue;
        };
        for target in targets {
            match layer_of(target, &layers) {
                Some(layer) if layer < own => wrong.push(format!(
                    "{file} (layer {}) imports {target} (layer {}, above it)",
                    own + 1,
                    layer + 1
                )),
                _ => {}
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_two_files_import_each_other() {
    let found = circles(&imports(&src()));
    let shown: Vec<String> = found.iter().map(|c| c.join(" ↔ ")).collect();
    assert!(found.is_empty(), "import circles:\n{}", shown.join("\n"));
}

#[test]
fn the_graph_sees_every_kind_of_import() {
    let code = code_only(
        r##"
use crate::{a::{b, c as d}, e};
use super::f::G;
use child::H;
// use crate::commented::Out;
const S: &str = "crate::in_string::Out";
const R: &str = r#"crate::in_raw::Out"#;
fn x<'a>(c: char) -> bool { c == '"' && c != '\'' && crate::inline::call() && self::mine::Y::z() }
#[cfg(test)]
mod tests {
    use crate::only_tests::X;
}
"##,
    );
    let code = without_tests(&code);
    let children = BTreeSet::from(["child".to_string(), "mine".to_string()]);
    let mut found: Vec<String> = named_paths(&code, &children)
        .iter()
        .map(|p| p.join("::"))
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            "child::H",
            "crate::a::b",
            "crate::a::c",
            "crate::e",
            "crate::inline::call",
            "self::mine::Y::z",
            "super::f::G",
        ]
    );
}

#[test]
fn a_circle_is_found_but_not_a_module_using_its_own_file() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a.rs", &["b.rs"][..]),
        ("b.rs", &["c/mod.rs"]),
        ("c/mod.rs", &["a.rs", "c/d.rs"]),
        ("c/d.rs", &["c/mod.rs"]),
        ("e.rs", &["e/f.rs"]),
        ("e/f.rs", &["e.rs"]),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
    .collect();
    assert_eq!(circles(&graph), [["a.rs", "b.rs", "c/mod.rs"]]);
}

#[test]
fn the_real_graph_is_not_empty() {
    // The check above cannot pass by reading nothing: known imports are seen.
    let graph = imports(&src());
    assert!(graph.len() > 100, "{} files", graph.len());
    assert!(graph["check.rs"].contains("walk.rs"));
    assert!(graph["cli/mod.rs"].contains("cli/check.rs"));
    assert!(graph["rules/mod.rs"].contains("extract/mod.rs"));
}
