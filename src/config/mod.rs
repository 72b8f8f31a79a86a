//! Configuration: `irilint.toml`, `.irilint.toml` or `[tool.irilint]` in `pyproject.toml`.
//!
//! As in ruff, each checked file takes the closest configuration file in its directory or any
//! directory above it (no implicit merging; `extend` inherits explicitly); `--config FILE` uses
//! that file for every path and `--isolated` none. From the chosen file — its `extend` chain
//! first, then its `[[overrides]]` whose `files` match, in order — and then the command line,
//! [`Resolver::settings_for`] computes a file's [`FileSettings`]: the rules that run at which
//! severity, the `allow` patterns, the input format, and whether the file is excluded.
//! [`file`] reads and validates one file; [`options`] documents every key once.

pub mod error;
pub mod file;
pub mod options;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use regex::Regex;

pub use error::ConfigError;
use file::{ConfigFile, Layer, Patterns};

use crate::iri::chars::escape_unsafe;
use crate::rules::selection::matching;
use crate::rules::{RULES, Selection, Severity};
use crate::source::Format;

/// The names a configuration file may have, in the order they win within one directory.
pub const FILE_NAMES: [&str; 3] = [".irilint.toml", "irilint.toml", "pyproject.toml"];

/// `exclude` when no configuration sets it: installed packages, not the project's documents.
/// Hidden directories are walked, so Python's environments (`.venv/`, tox's and nox's) are
/// named here, as ruff's default `exclude` names them.
pub const DEFAULT_EXCLUDE: &[&str] = &["node_modules/", ".venv/", ".tox/", ".nox/", ".direnv/"];

/// How far `extend` may chain.
const MAX_EXTEND_DEPTH: usize = 32;

/// The most globs and regular expressions an `extend` chain may hold in all: they add up, and
/// its files' compiled regular expressions are all kept (32 files of 1,000 each would be about
/// 275 MB).
const MAX_CHAIN_PATTERNS: usize = 4000;

/// `path` made absolute against `base` and lexically normal (no `.`, `..` resolved): what the
/// globs of a configuration file are matched against.
pub fn lexical_absolute(base: &Path, path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        base.join(path)
    };
    // Every file walked comes here: most paths are normal already, and one pass over the
    // bytes says so without rebuilding the path component by component.
    if is_lexically_normal(&joined) {
        return joined;
    }
    normalize(&joined)
}

/// `path` with `.` left out and `..` resolved, component by component.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(c);
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Whether `path` is absolute and is what [`lexical_absolute`] would make of it: after the
/// root, names separated by single slashes, none of them `.` or `..`, no slash at the end.
fn is_lexically_normal(path: &Path) -> bool {
    match path.as_os_str().as_encoded_bytes() {
        [b'/', rest @ ..] if !rest.is_empty() => rest
            .split(|&b| b == b'/')
            .all(|name| !matches!(name, b"" | b"." | b"..")),
        _ => false,
    }
}

/// A configuration in force: the file found (or named) and the files it extends.
#[derive(Debug)]
pub struct Config {
    /// The files, the most distant `extend` first, the file found last.
    pub chain: Vec<ConfigFile>,
}

/// The directory an `extend` chain must stay in: the repository that holds the configuration
/// found or named (the nearest directory above it with a `.git`), else that configuration's
/// own directory. Symbolic links resolved.
fn project_scope(config: &Path) -> PathBuf {
    let dir = config.parent().unwrap_or(Path::new("/"));
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    dir.ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(&dir)
        .to_path_buf()
}

/// Whether a configuration file may be named `name` to be reached above the directory of the
/// file that leads to it: `pyproject.toml`, or a `.toml` whose name says it is irilint's
/// (`irilint.toml`, `.irilint.toml`, `irilint-base.toml`). Secrets kept in TOML
/// (`credentials.toml`, `config.toml`, `secrets.toml`) are none of these.
fn named_as_configuration(name: &str) -> bool {
    name == "pyproject.toml" || (name.ends_with(".toml") && name.contains("irilint"))
}

/// An error unless `file`, its symbolic links resolved, may be read because the file in
/// directory `from` names it (an `extend`, or a directory holding a found configuration that is
/// a link): under `from`; or above it inside `scope` and either named as a configuration
/// ([`named_as_configuration`]) or inside `workspace` (the directory irilint runs in, the
/// editor's folder) in no hidden directory. So a folder downloaded into a home directory kept
/// in git cannot make irilint read (and quote) `~/.cargo/credentials.toml`. A file that cannot
/// be resolved (missing) passes: reading it fails next, with its own message.
fn reachable(scope: &Path, workspace: &Path, from: &Path, file: &Path) -> Result<(), String> {
    let Ok(resolved) = std::fs::canonicalize(file) else {
        return Ok(());
    };
    let from = std::fs::canonicalize(from).unwrap_or_else(|_| from.to_path_buf());
    if resolved.starts_with(&from) {
        return Ok(());
    }
    if !resolved.starts_with(scope) {
        return Err(format!(
            "leads outside the project, to {}",
            escape_unsafe(&resolved.display().to_string())
        ));
    }
    let name = resolved
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let in_workspace = std::fs::canonicalize(workspace)
        .ok()
        .and_then(|w| {
            resolved
                .parent()?
                .strip_prefix(w)
                .ok()
                .map(Path::to_path_buf)
        })
        .is_some_and(|rel| {
            !rel.components()
                .any(|c| c.as_os_str().as_encoded_bytes().starts_with(b"."))
        });
    if named_as_configuration(&name) || in_workspace {
        Ok(())
    } else {
        Err(format!(
            "leads above its own directory and outside the directory irilint runs in, to {}, \
             which is not named as a configuration file",
            escape_unsafe(&resolved.display().to_string())
        ))
    }
}

/// The help for a file [`reachable`] refused.
fn reachable_help(scope: &Path) -> String {
    format!(
        "a configuration may name any file under its own directory; above it, inside {}, a \
         file named `irilint.toml`, `.irilint.toml`, `pyproject.toml` or `*irilint*.toml`, or \
         any file under the directory irilint runs in (not in a hidden directory)",
        escape_unsafe(&scope.display().to_string())
    )
}

impl Config {
    /// Reads `path` and follows its `extend` chain, which `workspace` (the directory irilint
    /// runs in) bounds with the repository ([`reachable`]). `None` for a `pyproject.toml`
    /// without `[tool.irilint]`.
    pub fn load(path: &Path, workspace: &Path) -> Result<Option<Config>, ConfigError> {
        let Some(first) = file::read(path)? else {
            return Ok(None);
        };
        let mut chain = vec![first];
        let mut scope = None;
        while let Some((next, span)) = chain.last().and_then(|f| f.extend.clone()) {
            let from = chain.last().expect("a file");
            let scope = scope.get_or_insert_with(|| project_scope(path));
            let from_dir = from.path.parent().unwrap_or(Path::new("/"));
            if let Err(why) = reachable(scope, workspace, from_dir, &next) {
                return Err(ConfigError::at(
                    &from.path,
                    &from.text,
                    span,
                    format!("`extend` {why}"),
                )
                .with_help(reachable_help(scope)));
            }
            if chain.iter().any(|f| f.path == next) {
                return Err(ConfigError::at(
                    &from.path,
                    &from.text,
                    span,
                    format!("`extend` loops back to {}", next.display()),
                ));
            }
            if chain.len() >= MAX_EXTEND_DEPTH {
                return Err(ConfigError::at(
                    &from.path,
                    &from.text,
                    span,
                    format!("`extend` chains more than {MAX_EXTEND_DEPTH} files"),
                ));
            }
            let extended = match file::read(&next) {
                Ok(Some(f)) => f,
                Ok(None) => {
                    return Err(ConfigError::at(
                        &from.path,
                        &from.text,
                        span,
                        format!("{} has no [tool.irilint] table", next.display()),
                    ));
                }
                Err(e) if e.text.is_none() => {
                    return Err(ConfigError::at(&from.path, &from.text, span, e.message));
                }
                Err(e) => return Err(e),
            };
            let total: usize = chain.iter().map(|f| f.patterns).sum::<usize>() + extended.patterns;
            if total > MAX_CHAIN_PATTERNS {
                return Err(ConfigError::at(
                    &from.path,
                    &from.text,
                    span,
                    format!(
                        "the `extend` chain holds more than {MAX_CHAIN_PATTERNS} globs and \
                         regular expressions in all"
                    ),
                )
                .with_help(
                    "match many paths with one glob and many IRIs with one regular expression",
                ));
            }
            chain.push(extended);
        }
        chain.reverse();
        Ok(Some(Config { chain }))
    }

    /// The file that was found or named.
    pub fn path(&self) -> &Path {
        &self.chain.last().expect("a file").path
    }

    /// The layers that apply to `path`: every file's top-level keys in chain order, then every
    /// matching override in chain order (with its file's and its own index).
    fn layers_for(&self, path: &Path, is_dir: bool) -> Vec<(&Layer, Option<(usize, usize)>)> {
        let mut out: Vec<(&Layer, Option<(usize, usize)>)> =
            self.chain.iter().map(|f| (&f.base, None)).collect();
        for (i, f) in self.chain.iter().enumerate() {
            for (j, o) in f.overrides.iter().enumerate() {
                if o.files.matches(path, is_dir) {
                    out.push((&o.layer, Some((i, j))));
                }
            }
        }
        out
    }

    /// `file [[overrides]] #n (files = [...])` for `--show-settings`.
    fn describe_override(&self, (i, j): (usize, usize), cwd: &Path) -> String {
        let f = &self.chain[i];
        let o = &f.overrides[j];
        format!(
            "{} [[overrides]] #{} (files = {:?})",
            f.path.strip_prefix(cwd).unwrap_or(&f.path).display(),
            o.number,
            o.files.globs
        )
    }
}

/// The command line's part of the settings, which wins over every file.
#[derive(Debug, Clone, Default)]
pub struct CliSettings {
    /// `--select`.
    pub select: Vec<String>,
    /// `--extend-select`.
    pub extend_select: Vec<String>,
    /// `--ignore`.
    pub ignore: Vec<String>,
}

/// What applies to one file.
#[derive(Debug, Clone, Default)]
pub struct FileSettings {
    /// The rules that run and their severities.
    pub selection: Selection,
    /// IRIs no rule reports.
    pub allow: Vec<Arc<Regex>>,
    /// The format `[input-format]` gives the file, if any.
    pub format: Option<Format>,
}

impl FileSettings {
    /// Whether an `allow` pattern matches the prepared IRI `iri`.
    pub fn allows(&self, iri: &str) -> bool {
        self.allow.iter().any(|r| r.is_match(iri))
    }
}

/// Rules turned on or off and severities set, layer after layer.
struct RuleSet {
    on: Vec<bool>,
    level: Vec<Option<Severity>>,
}

impl RuleSet {
    fn new() -> RuleSet {
        RuleSet {
            on: RULES.iter().map(|r| r.severity != Severity::Info).collect(),
            level: vec![None; RULES.len()],
        }
    }

    fn select(&mut self, select: Option<&[String]>, extend: &[String], ignore: &[String]) {
        let each = |selectors: &[String], f: &mut dyn FnMut(usize)| {
            for s in selectors {
                for i in matching(s).unwrap_or_default() {
                    f(i);
                }
            }
        };
        if let Some(select) = select {
            self.on = vec![false; RULES.len()];
            each(select, &mut |i| self.on[i] = true);
        }
        each(extend, &mut |i| self.on[i] = true);
        each(ignore, &mut |i| self.on[i] = false);
    }

    fn apply(&mut self, layer: &Layer) {
        self.select(layer.select.as_deref(), &layer.extend_select, &layer.ignore);
        // Groups first, then rule ids: the more specific entry wins whatever the order.
        let is_rule = |s: &str| crate::rules::rule(s).is_some();
        for pass_rules in [false, true] {
            for (selector, severity) in &layer.severity {
                if is_rule(selector) != pass_rules {
                    continue;
                }
                for i in matching(selector).unwrap_or_default() {
                    match severity {
                        Some(s) => {
                            self.on[i] = true;
                            self.level[i] = Some(*s);
                        }
                        None => self.on[i] = false,
                    }
                }
            }
        }
    }

    fn selection(&self) -> Selection {
        Selection::from_severities(
            RULES
                .iter()
                .enumerate()
                .map(|(i, r)| self.on[i].then(|| self.level[i].unwrap_or(r.severity)))
                .collect(),
        )
    }
}

/// Where configuration comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Discovery {
    /// The closest file to each checked file.
    Nearest,
    /// `--config FILE`.
    Fixed(PathBuf),
    /// `--isolated`: none.
    Isolated,
}

/// Everything decided for one path.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// The configuration in force, if any.
    pub config: Option<Arc<Config>>,
    /// The settings.
    pub settings: Arc<FileSettings>,
    /// Whether `exclude`/`extend-exclude` leave the path out.
    pub excluded: bool,
    /// The overrides that applied: (index in the chain, index among that file's overrides).
    pub overrides: Vec<(usize, usize)>,
    /// For a file met while walking ([`Resolver::resolve_walked`]): every other file of its
    /// directory resolves as it does. Its configuration (found by the directory) has no
    /// `[[overrides]]` and no `[input-format]`, and the patterns that exclude name only
    /// directories, so nothing depends on the file's own name.
    pub same_in_directory: bool,
}

/// Finds and caches configuration files, and computes each path's settings.
#[derive(Debug)]
pub struct Resolver {
    discovery: Discovery,
    cli: CliSettings,
    cwd: PathBuf,
    fixed: Option<Arc<Config>>,
    by_dir: Mutex<HashMap<PathBuf, Option<Arc<Config>>>>,
    settings: Mutex<HashMap<SettingsKey, Arc<FileSettings>>>,
    default_exclude: Patterns,
}

/// What a file's settings depend on: its configuration, the overrides that match it and the
/// format `[input-format]` gives it. Files that agree share one [`FileSettings`].
type SettingsKey = (usize, Vec<(usize, usize)>, Option<Format>);

impl Resolver {
    /// A resolver; reads the `--config` file at once.
    pub fn new(discovery: Discovery, cli: CliSettings) -> Result<Resolver, ConfigError> {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        let fixed = match &discovery {
            Discovery::Fixed(path) => {
                let path = lexical_absolute(&cwd, path);
                match Config::load(&path, &cwd)? {
                    Some(c) => Some(Arc::new(c)),
                    None => {
                        return Err(ConfigError::file(
                            &path,
                            "this pyproject.toml has no [tool.irilint] table",
                        ));
                    }
                }
            }
            _ => None,
        };
        Ok(Resolver {
            discovery,
            cli,
            default_exclude: Patterns::new(Path::new("/"), DEFAULT_EXCLUDE),
            cwd,
            fixed,
            by_dir: Mutex::new(HashMap::new()),
            settings: Mutex::new(HashMap::new()),
        })
    }

    /// Every configuration file read so far (the `--config` file, the files found and the files
    /// they extend), sorted, each once: what a report must never replace.
    pub fn files_read(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        let by_dir = self.by_dir.lock().expect("lock");
        for config in self.fixed.iter().chain(by_dir.values().flatten()) {
            out.extend(config.chain.iter().map(|f| f.path.clone()));
        }
        out.sort();
        out.dedup();
        out
    }

    /// `path` as the configuration sees it: absolute and lexically normal.
    pub fn absolute(&self, path: &Path) -> PathBuf {
        lexical_absolute(&self.cwd, path)
    }

    /// The configuration for the files in directory `dir` (absolute).
    pub fn config_for_dir(&self, dir: &Path) -> Result<Option<Arc<Config>>, ConfigError> {
        match self.discovery {
            Discovery::Isolated => return Ok(None),
            Discovery::Fixed(_) => return Ok(self.fixed.clone()),
            Discovery::Nearest => {}
        }
        if let Some(found) = self.by_dir.lock().expect("lock").get(dir) {
            return Ok(found.clone());
        }
        let mut found = None;
        for name in FILE_NAMES {
            let candidate = dir.join(name);
            // Anything by that name counts: a FIFO or a device is an error, not ignored.
            if !candidate.exists() {
                continue;
            }
            // A found configuration may be a symbolic link (git stores them): where it leads
            // is bound as an `extend` is, and a refused one is named, never quoted.
            let scope = project_scope(&candidate);
            if let Err(why) = reachable(&scope, &self.cwd, dir, &candidate) {
                return Err(ConfigError::file(
                    &candidate,
                    format!("this configuration file is a symbolic link that {why}: not read"),
                )
                .with_help(reachable_help(&scope)));
            }
            if let Some(config) = Config::load(&candidate, &self.cwd)? {
                found = Some(Arc::new(config));
                break;
            }
        }
        if found.is_none()
            && let Some(parent) = dir.parent()
        {
            found = self.config_for_dir(parent)?;
        }
        self.by_dir
            .lock()
            .expect("lock")
            .insert(dir.to_path_buf(), found.clone());
        Ok(found)
    }

    /// The settings for `path` (a file, or a directory when `is_dir`), its configuration looked
    /// up from its own directory (a file) or its parent (a directory, so that a parent's
    /// `exclude` decides whether to enter it).
    pub fn resolve(&self, path: &Path, is_dir: bool) -> Result<Resolved, ConfigError> {
        self.resolve_in(path, is_dir, false)
    }

    /// [`Resolver::resolve`] for a path met while walking a directory, whose parent directories
    /// were already found not to be excluded.
    pub fn resolve_walked(&self, path: &Path, is_dir: bool) -> Result<Resolved, ConfigError> {
        self.resolve_in(path, is_dir, true)
    }

    fn resolve_in(
        &self,
        path: &Path,
        is_dir: bool,
        parents_checked: bool,
    ) -> Result<Resolved, ConfigError> {
        crate::work::add(crate::work::Work::SettingsResolved, 1);
        let path = self.absolute(path);
        let dir = path.parent().unwrap_or(Path::new("/"));
        let config = self.config_for_dir(dir)?;
        let layers = config
            .as_ref()
            .map(|c| c.layers_for(&path, is_dir))
            .unwrap_or_default();
        let mut format = None;
        let mut exclude: Vec<&Patterns> = vec![&self.default_exclude];
        for (layer, _) in &layers {
            for (patterns, f) in &layer.input_format {
                if patterns.matches(&path, is_dir) {
                    format = Some(*f);
                }
            }
            if let Some(e) = &layer.exclude {
                exclude = vec![e];
            }
            exclude.extend(&layer.extend_exclude);
        }
        // Nothing below reads the file's name but the layers, the formats and the exclusion.
        let same_in_directory = !is_dir
            && parents_checked
            && config.as_ref().is_none_or(|c| {
                c.chain
                    .iter()
                    .all(|f| f.overrides.is_empty() && f.base.input_format.is_empty())
            })
            && exclude.iter().all(|p| p.only_directories());
        let excluded = exclude.iter().any(|p| {
            if parents_checked {
                p.matches_itself(&path, is_dir)
            } else {
                p.matches(&path, is_dir)
            }
        });
        let overrides: Vec<(usize, usize)> = layers.iter().filter_map(|(_, o)| *o).collect();
        let key = (
            config.as_ref().map_or(0, |c| Arc::as_ptr(c) as usize),
            overrides.clone(),
            format,
        );
        let cached = self.settings.lock().expect("lock").get(&key).cloned();
        let settings = match cached {
            Some(s) => s,
            None => {
                let mut rules = RuleSet::new();
                let mut allow = Vec::new();
                for (layer, _) in &layers {
                    rules.apply(layer);
                    allow.extend(layer.allow.iter().cloned());
                }
                rules.select(
                    (!self.cli.select.is_empty()).then_some(self.cli.select.as_slice()),
                    &self.cli.extend_select,
                    &self.cli.ignore,
                );
                let settings = Arc::new(FileSettings {
                    selection: rules.selection(),
                    allow,
                    format,
                });
                self.settings
                    .lock()
                    .expect("lock")
                    .insert(key, settings.clone());
                settings
            }
        };
        drop(layers);
        Ok(Resolved {
            config,
            settings,
            excluded,
            overrides,
            same_in_directory,
        })
    }

    /// What `--show-settings PATH` prints.
    pub fn show(&self, path: &Path) -> Result<String, ConfigError> {
        let is_dir = path.is_dir();
        let r = self.resolve(path, is_dir)?;
        let mut out = String::new();
        let shown =
            |p: &Path| escape_unsafe(&p.strip_prefix(&self.cwd).unwrap_or(p).display().to_string());
        let _ = writeln!(out, "Settings for {}", shown(path));
        match (&r.config, &self.discovery) {
            (None, Discovery::Isolated) => {
                let _ = writeln!(out, "  configuration: none (--isolated)");
            }
            (None, _) => {
                let _ = writeln!(out, "  configuration: none found (defaults)");
            }
            (Some(config), _) => {
                let how = if matches!(self.discovery, Discovery::Fixed(_)) {
                    "--config"
                } else {
                    "closest"
                };
                let _ = writeln!(out, "  configuration: {} ({how})", shown(config.path()));
                for f in config.chain.iter().rev().skip(1) {
                    let _ = writeln!(out, "    extends: {}", shown(&f.path));
                }
            }
        }
        if let Some(config) = &r.config {
            for &o in &r.overrides {
                let described = config.describe_override(o, &self.cwd);
                let _ = writeln!(out, "  override: {}", escape_unsafe(&described));
            }
        }
        let _ = writeln!(out, "  excluded: {}", if r.excluded { "yes" } else { "no" });
        if !is_dir {
            let format = r
                .settings
                .format
                .map(|f| format!("{} (input-format)", f.name()))
                .or_else(|| Format::from_path(path).map(|f| format!("{} (extension)", f.name())))
                .unwrap_or_else(|| "none: not read when walking a directory".to_string());
            let _ = writeln!(out, "  input format: {format}");
        }
        let _ = writeln!(out, "  rules:");
        let width = RULES.iter().map(|r| r.id.len()).max().unwrap_or(0);
        for rule in RULES {
            let level = r
                .settings
                .selection
                .severity_of(rule.id)
                .map_or("off", Severity::name);
            let _ = writeln!(out, "    {:<width$}  {level}", rule.id);
        }
        if r.settings.allow.is_empty() {
            let _ = writeln!(out, "  allow: none");
        } else {
            let _ = writeln!(out, "  allow:");
            for a in &r.settings.allow {
                let _ = writeln!(out, "    {}", escape_unsafe(a.as_str()));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_taken_as_normal_is_what_normalizing_gives() {
        let normal = ["/a", "/a/b.svg", "/a/.b", "/a/..b", "/a/b c/d", "/é/x"];
        let not = [
            "/", "a/b", "/a/b/", "/a//b", "/a/./b", "/a/../b", "/a/b/.", "/a/b/..", "//a", "",
        ];
        for p in normal {
            assert!(is_lexically_normal(Path::new(p)), "{p}");
            assert_eq!(normalize(Path::new(p)), Path::new(p), "{p}");
        }
        for p in not {
            assert!(!is_lexically_normal(Path::new(p)), "{p}");
        }
        assert_eq!(
            lexical_absolute(Path::new("/w"), Path::new("a/./b/../c")),
            Path::new("/w/a/c")
        );
    }
}
