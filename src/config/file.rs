//! One configuration file, read and checked: every key, type, rule id, glob and pattern is
//! validated here, and every error points at the bytes of the file at fault.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use regex::Regex;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::error::ConfigError;
use super::options::{OPTIONS, option};
use crate::rules::Severity;
use crate::rules::selection::{matching, suggest};
use crate::source::Format;

/// Gitignore-style globs, relative to the directory of the file that wrote them.
#[derive(Debug, Clone)]
pub struct Patterns {
    /// The globs as written.
    pub globs: Vec<String>,
    matcher: Gitignore,
    /// Every glob names directories only (`node_modules/`), or is a comment or blank: no file
    /// matches them ([`names_only_directories`]).
    only_directories: bool,
}

/// Whether the gitignore line `glob` can match directories only: read as `ignore`'s
/// `GitignoreBuilder::add_line` reads it (trailing whitespace dropped unless escaped, a
/// comment or a blank line adds nothing), it ends with `/`, which that crate's matcher never
/// lets match a path that is not a directory.
fn names_only_directories(glob: &str) -> bool {
    let line = if glob.ends_with("\\ ") {
        glob
    } else {
        glob.trim_end()
    };
    glob.starts_with('#') || line.is_empty() || line.ends_with('/')
}

impl Patterns {
    /// `globs` relative to `root` (each already checked).
    pub fn new(root: &Path, globs: &[&str]) -> Patterns {
        let mut builder = GitignoreBuilder::new(root);
        for g in globs {
            let _ = builder.add_line(None, g);
        }
        Patterns {
            globs: globs.iter().map(|g| g.to_string()).collect(),
            matcher: builder.build().unwrap_or_else(|_| Gitignore::empty()),
            only_directories: globs.iter().all(|g| names_only_directories(g)),
        }
    }

    /// Whether no file (a path that is not a directory) can match itself
    /// ([`Patterns::matches_itself`] is false for every file).
    pub fn only_directories(&self) -> bool {
        self.only_directories
    }

    /// Whether `path` (absolute, lexically normal) or a directory above it matches.
    pub fn matches(&self, path: &Path, is_dir: bool) -> bool {
        if !path.starts_with(self.matcher.path()) {
            return false;
        }
        self.matcher
            .matched_path_or_any_parents(path, is_dir)
            .is_ignore()
    }

    /// Whether `path` itself matches (its directories are known not to).
    pub fn matches_itself(&self, path: &Path, is_dir: bool) -> bool {
        path.starts_with(self.matcher.path()) && self.matcher.matched(path, is_dir).is_ignore()
    }
}

/// The keys that may stand at the top level or in an override (all but `extend` and `files`).
#[derive(Debug, Clone, Default)]
pub struct Layer {
    /// `select`: replaces the set of rules so far.
    pub select: Option<Vec<String>>,
    /// `extend-select`.
    pub extend_select: Vec<String>,
    /// `ignore`.
    pub ignore: Vec<String>,
    /// `[severity]`: selector and severity (`None`: off), in file order.
    pub severity: Vec<(String, Option<Severity>)>,
    /// `exclude`: replaces the list so far.
    pub exclude: Option<Patterns>,
    /// `extend-exclude`.
    pub extend_exclude: Option<Patterns>,
    /// `[input-format]`: each glob with its format, in file order.
    pub input_format: Vec<(Patterns, Format)>,
    /// `allow`.
    pub allow: Vec<Arc<Regex>>,
}

/// An `[[overrides]]` table.
#[derive(Debug, Clone)]
pub struct Override {
    /// Its position among the file's overrides (1-based), for `--show-settings`.
    pub number: usize,
    /// `files`.
    pub files: Patterns,
    /// Its other keys.
    pub layer: Layer,
}

/// One configuration file as written (its `extend` not followed yet).
#[derive(Debug, Clone)]
pub struct ConfigFile {
    /// Absolute path.
    pub path: PathBuf,
    /// `extend`: the other file's absolute path, and where the value is written.
    pub extend: Option<(PathBuf, Range<usize>)>,
    /// The top-level keys.
    pub base: Layer,
    /// `[[overrides]]`, in order.
    pub overrides: Vec<Override>,
    /// The file's text, for errors found later (an `extend` that loops).
    pub text: Arc<str>,
    /// How many globs and regular expressions it holds (at most [`MAX_PATTERNS`]).
    pub patterns: usize,
}

/// Reads `path`: an `irilint.toml`, or a `pyproject.toml` (then only its `[tool.irilint]`,
/// and `None` when it has none).
pub fn read(path: &Path) -> Result<Option<ConfigFile>, ConfigError> {
    let text = crate::fsio::read_capped(path, crate::fsio::MAX_CONFIG_BYTES)
        .map_err(|e| ConfigError::file(path, format!("cannot read configuration file: {e}")))?;
    let pyproject = path.file_name().is_some_and(|n| n == "pyproject.toml");
    parse(path, Arc::from(text), pyproject)
}

/// Parses a configuration file's `text`.
pub fn parse(
    path: &Path,
    text: Arc<str>,
    pyproject: bool,
) -> Result<Option<ConfigFile>, ConfigError> {
    let p = Parser {
        path,
        text: &text,
        patterns: std::cell::Cell::new(0),
    };
    let root = DeTable::parse(&text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        ConfigError::at(
            path,
            &text,
            span,
            format!("invalid TOML: {}", e.message().trim()),
        )
        // A file that is not TOML may be anything an `extend` named: its lines are not shown.
        .unquoted()
    })?;
    let table = if pyproject {
        let Some(tool) = root.get_ref().get("tool") else {
            return Ok(None);
        };
        let DeValue::Table(tool) = tool.get_ref() else {
            return Ok(None);
        };
        let Some(irilint) = tool.get("irilint") else {
            return Ok(None);
        };
        p.table(irilint, "[tool.irilint]")?
    } else {
        root.get_ref()
    };
    let dir = path.parent().unwrap_or(Path::new("/"));
    let mut file = ConfigFile {
        path: path.to_path_buf(),
        extend: None,
        base: Layer::default(),
        overrides: Vec::new(),
        text: text.clone(),
        patterns: 0,
    };
    for (key, value) in table {
        match key.get_ref().as_ref() {
            "extend" => {
                let (s, span) = p.string(value, "extend")?;
                let named = Path::new(&s);
                if named.has_root()
                    || named
                        .components()
                        .any(|c| matches!(c, std::path::Component::Prefix(_)))
                {
                    return Err(ConfigError::at(
                        path,
                        &text,
                        span,
                        "`extend` must be a path relative to this file, inside the project",
                    )
                    .with_help("write the path from this file's directory, e.g. `extend = \"../irilint.toml\"`"));
                }
                if named.extension().is_none_or(|e| e != "toml") {
                    return Err(ConfigError::at(
                        path,
                        &text,
                        span,
                        "`extend` must name a `.toml` file",
                    )
                    .with_help("point it at another irilint.toml, or at a pyproject.toml with a [tool.irilint] table"));
                }
                file.extend = Some((super::lexical_absolute(dir, named), span));
            }
            "overrides" => {
                let DeValue::Array(tables) = value.get_ref() else {
                    return Err(p.wrong_type(
                        value,
                        "overrides",
                        "an array of tables (`[[overrides]]`)",
                    ));
                };
                for (i, t) in tables.iter().enumerate() {
                    file.overrides.push(p.override_table(t, i + 1, dir)?);
                }
            }
            _ => p.layer_key(key, value, dir, &mut file.base, false)?,
        }
    }
    file.patterns = p.patterns.get();
    Ok(Some(file))
}

/// The most globs and regular expressions one configuration file may hold (`exclude`,
/// `extend-exclude`, `allow`, `[input-format]`, overrides' `files`). Each is compiled when the
/// file is read, a few kilobytes to a few dozen while its matcher is built: 1 MB of
/// configuration of 36,000 globs took 480 MB, of 34,000 regular expressions 292 MB.
pub const MAX_PATTERNS: usize = 1000;

struct Parser<'a> {
    path: &'a Path,
    text: &'a Arc<str>,
    /// Globs and regular expressions read so far.
    patterns: std::cell::Cell<usize>,
}

fn type_name(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date-time",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

impl Parser<'_> {
    fn error(&self, span: Range<usize>, message: impl Into<String>) -> ConfigError {
        ConfigError::at(self.path, self.text, span, message)
    }

    fn wrong_type(&self, value: &Spanned<DeValue<'_>>, key: &str, expected: &str) -> ConfigError {
        self.error(
            value.span(),
            format!(
                "`{key}` must be {expected}, not {}",
                type_name(value.get_ref())
            ),
        )
        .with_help(
            option(key)
                .map(|o| format!("for example: {}", o.example.replace('\n', "; ")))
                .unwrap_or_default(),
        )
    }

    fn table<'t>(
        &self,
        value: &'t Spanned<DeValue<'t>>,
        key: &str,
    ) -> Result<&'t DeTable<'t>, ConfigError> {
        match value.get_ref() {
            DeValue::Table(t) => Ok(t),
            _ => Err(self.wrong_type(value, key, "a table")),
        }
    }

    fn string(
        &self,
        value: &Spanned<DeValue<'_>>,
        key: &str,
    ) -> Result<(String, Range<usize>), ConfigError> {
        match value.get_ref() {
            DeValue::String(s) => Ok((s.to_string(), value.span())),
            _ => Err(self.wrong_type(value, key, "a string")),
        }
    }

    fn strings(
        &self,
        value: &Spanned<DeValue<'_>>,
        key: &str,
    ) -> Result<Vec<(String, Range<usize>)>, ConfigError> {
        let DeValue::Array(items) = value.get_ref() else {
            return Err(self.wrong_type(value, key, "an array of strings"));
        };
        items
            .iter()
            .map(|item| match item.get_ref() {
                DeValue::String(s) => Ok((s.to_string(), item.span())),
                other => Err(self.error(
                    item.span(),
                    format!(
                        "`{key}` must be an array of strings, but this is {}",
                        type_name(other)
                    ),
                )),
            })
            .collect()
    }

    fn selectors(
        &self,
        value: &Spanned<DeValue<'_>>,
        key: &str,
    ) -> Result<Vec<String>, ConfigError> {
        let items = self.strings(value, key)?;
        for (s, span) in &items {
            self.selector(s, span.clone())?;
        }
        Ok(items.into_iter().map(|(s, _)| s).collect())
    }

    fn selector(&self, s: &str, span: Range<usize>) -> Result<(), ConfigError> {
        matching(s).map(|_| ()).map_err(|_| {
            let e = self.error(span, format!("unknown rule or group `{s}`"));
            match suggest(s) {
                Some(near) => e.with_help(format!(
                    "did you mean `{near}`? (`irilint rules` lists the rules and groups)"
                )),
                None => e.with_help("`irilint rules` lists the rules and groups"),
            }
        })
    }

    /// Counts `n` more patterns, the last of them at `span`; an error past [`MAX_PATTERNS`],
    /// before any of them is compiled.
    fn count_patterns(&self, n: usize, span: Range<usize>) -> Result<(), ConfigError> {
        let count = self.patterns.get() + n;
        self.patterns.set(count);
        if count > MAX_PATTERNS {
            return Err(self
                .error(
                    span,
                    format!(
                        "more than {MAX_PATTERNS} globs and regular expressions in one \
                         configuration file"
                    ),
                )
                .with_help(
                    "match many paths with one glob (`legacy/`, `**/*.min.html`) and many IRIs \
                     with one regular expression",
                ));
        }
        Ok(())
    }

    fn patterns(
        &self,
        value: &Spanned<DeValue<'_>>,
        key: &str,
        dir: &Path,
    ) -> Result<Patterns, ConfigError> {
        let items = self.strings(value, key)?;
        self.count_patterns(items.len(), value.span())?;
        for (glob, span) in &items {
            self.check_glob(glob, span.clone(), dir)?;
        }
        let globs: Vec<&str> = items.iter().map(|(g, _)| g.as_str()).collect();
        Ok(Patterns::new(dir, &globs))
    }

    fn check_glob(&self, glob: &str, span: Range<usize>, dir: &Path) -> Result<(), ConfigError> {
        let mut builder = GitignoreBuilder::new(dir);
        match builder.add_line(None, glob) {
            Ok(_) => Ok(()),
            Err(e) => {
                let reason = match &e {
                    ignore::Error::Glob { err, .. } => err.clone(),
                    other => other.to_string(),
                };
                Err(self
                    .error(span, format!("invalid glob `{glob}`: {reason}"))
                    .with_help(
                        "globs are gitignore-style: `legacy/`, `*.min.html`, `/public/**/*.html`",
                    ))
            }
        }
    }

    fn layer_key(
        &self,
        key: &Spanned<std::borrow::Cow<'_, str>>,
        value: &Spanned<DeValue<'_>>,
        dir: &Path,
        layer: &mut Layer,
        in_override: bool,
    ) -> Result<(), ConfigError> {
        let name = key.get_ref().as_ref();
        match name {
            "select" => layer.select = Some(self.selectors(value, name)?),
            "extend-select" => layer.extend_select = self.selectors(value, name)?,
            "ignore" => layer.ignore = self.selectors(value, name)?,
            "exclude" => layer.exclude = Some(self.patterns(value, name, dir)?),
            "extend-exclude" => layer.extend_exclude = Some(self.patterns(value, name, dir)?),
            "allow" => {
                let patterns = self.strings(value, name)?;
                self.count_patterns(patterns.len(), value.span())?;
                for (pattern, span) in patterns {
                    let regex = Regex::new(&pattern).map_err(|e| {
                        let reason = match &e {
                            regex::Error::Syntax(s) => s
                                .lines()
                                .rfind(|l| l.starts_with("error:"))
                                .unwrap_or(s)
                                .trim_start_matches("error: ")
                                .to_string(),
                            other => other.to_string(),
                        };
                        self.error(span, format!("invalid regular expression: {reason}"))
                            .with_help("`allow` patterns use the syntax of the `regex` crate; escape `.` `?` `(` as `\\.` ... (single quotes keep backslashes literal in TOML)")
                    })?;
                    layer.allow.push(Arc::new(regex));
                }
            }
            "severity" => {
                for (selector, level) in self.table(value, name)? {
                    let s = selector.get_ref().as_ref();
                    self.selector(s, selector.span())?;
                    let (level_name, span) = self.string(level, "severity")?;
                    let severity = match level_name.as_str() {
                        "error" => Some(Severity::Error),
                        "warning" => Some(Severity::Warning),
                        "info" => Some(Severity::Info),
                        "off" => None,
                        other => {
                            let e =
                                self.error(span, format!("unknown severity `{other}` for `{s}`"));
                            let near = closest(other, &["error", "warning", "info", "off"]);
                            return Err(e.with_help(match near {
                                Some(n) => format!("did you mean `{n}`? A severity is \"error\", \"warning\", \"info\" or \"off\""),
                                None => "a severity is \"error\", \"warning\", \"info\" or \"off\"".to_string(),
                            }));
                        }
                    };
                    layer.severity.push((s.to_string(), severity));
                }
            }
            "input-format" => {
                let globs = self.table(value, name)?;
                self.count_patterns(globs.len(), value.span())?;
                for (glob, format) in globs {
                    let g = glob.get_ref().as_ref();
                    self.check_glob(g, glob.span(), dir)?;
                    let (format_name, span) = self.string(format, "input-format")?;
                    let names = Format::names();
                    let Some(format) = Format::from_name(&format_name) else {
                        let e = self.error(span, format!("unknown input format `{format_name}`"));
                        return Err(e.with_help(match closest(&format_name, &names) {
                            Some(n) => format!(
                                "did you mean `{n}`? Input formats are {}",
                                names.join(", ")
                            ),
                            None => format!("input formats are {}", names.join(", ")),
                        }));
                    };
                    layer.input_format.push((Patterns::new(dir, &[g]), format));
                }
            }
            _ => {
                let valid: Vec<&str> = OPTIONS
                    .iter()
                    .filter(|o| {
                        if in_override {
                            o.in_overrides
                        } else {
                            o.name != "files"
                        }
                    })
                    .map(|o| o.name)
                    .collect();
                let misplaced = if in_override && (name == "extend" || name == "overrides") {
                    Some(format!(
                        "`{name}` is only allowed at the top level, not in `[[overrides]]`"
                    ))
                } else if !in_override && name == "files" {
                    Some("`files` belongs in an `[[overrides]]` table".to_string())
                } else {
                    None
                };
                let e = self.error(
                    key.span(),
                    misplaced.unwrap_or_else(|| format!("unknown key `{name}`")),
                );
                return Err(match closest(name, &valid) {
                    Some(near) if near != name => e.with_help(format!(
                        "did you mean `{near}`? (`irilint config` lists every key)"
                    )),
                    _ => e.with_help(format!("valid keys here: {}", valid.join(", "))),
                });
            }
        }
        Ok(())
    }

    fn override_table(
        &self,
        value: &Spanned<DeValue<'_>>,
        number: usize,
        dir: &Path,
    ) -> Result<Override, ConfigError> {
        let table = self.table(value, "overrides")?;
        let mut layer = Layer::default();
        let mut files = None;
        for (key, v) in table {
            if key.get_ref() == "files" {
                let patterns = self.patterns(v, "files", dir)?;
                if patterns.globs.is_empty() {
                    return Err(self.error(
                        v.span(),
                        "`files` is empty: this override would apply to no file",
                    ));
                }
                files = Some(patterns);
            } else {
                self.layer_key(key, v, dir, &mut layer, true)?;
            }
        }
        let files = files.ok_or_else(|| {
            self.error(value.span(), "an `[[overrides]]` table needs `files`")
                .with_help("add the files it applies to: files = [\"legacy/**\"]")
        })?;
        Ok(Override {
            number,
            files,
            layer,
        })
    }
}

/// The name in `candidates` closest to `s`, if one is close.
fn closest<'a>(s: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (crate::rules::selection::edit_distance(s, c), *c))
        .filter(|&(d, c)| d <= 3.max(c.len() / 4))
        .min()
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `names_only_directories` says of each line what `ignore`'s matcher makes of it: a line
    /// it claims matches no file, and every other line it would add is not for directories
    /// only.
    #[test]
    fn a_line_for_directories_only_is_what_the_matcher_reads_so() {
        // Each line with a name it matches as a directory.
        let lines = [
            ("node_modules/", "node_modules"),
            (".venv/", ".venv"),
            ("build/  ", "build"),
            ("build/\t", "build"),
            ("build/\\ ", "build/ "),
            ("build\\ ", "build "),
            ("/build/", "build"),
            ("!keep/", "keep"),
            ("**/out/", "out"),
            ("a/**/", "a/b"),
            ("a/**", "a/b"),
            ("*.min.html", "x.min.html"),
            ("docs", "docs"),
            ("docs/*", "docs/x"),
            ("\\#x/", "#x"),
            ("\\!x/", "!x"),
            ("x\\/", "x"),
            ("#comment/", "comment"),
            ("#comment", "comment"),
            ("", "x"),
            ("   ", "x"),
        ];
        let root = Path::new("/r");
        for (line, name) in lines {
            let patterns = Patterns::new(root, &[line]);
            let claimed = names_only_directories(line);
            assert_eq!(patterns.only_directories(), claimed, "{line:?}");
            let dir = root.join(name);
            match patterns.matcher.matched(&dir, true) {
                ignore::Match::Ignore(g) | ignore::Match::Whitelist(g) => {
                    assert_eq!(g.is_only_dir(), claimed, "{line:?} on {name:?}");
                }
                ignore::Match::None => {
                    let added = patterns.matcher.num_ignores() + patterns.matcher.num_whitelists();
                    assert!(
                        added == 0 && claimed,
                        "{line:?} added but matched no {name:?}"
                    );
                }
            }
            if claimed {
                // Not even the file of the name it matches as a directory.
                assert!(
                    !patterns.matches_itself(&dir, false),
                    "{line:?} on a file {name:?}"
                );
            }
        }
    }
}
