//! Baselines: the findings a project already has, written once (`--write-baseline FILE`) and
//! then held back (`--baseline FILE`) so that only new findings are reported.
//!
//! A finding is keyed by its path (relative to the baseline file's directory, with `/`), its
//! rule, the prepared IRI (`null` for a problem with the document itself) and its occurrence
//! number among the findings of the file with the same rule and IRI, in source order — never
//! by line, so that inserting lines above a baselined finding does not bring it back. The file
//! is JSON, versioned, sorted, and the same for the same findings whatever the run.
//!
//! Each entry holds back one finding: a key written twice holds back two, and a third is new.
//! A run counts what each key matched; entries that matched nothing in a file the run checked
//! (the problem was fixed), or whose file is gone, are stale — said on stderr, and dropped by
//! `--prune-baseline`, so that a fixed problem that comes back is reported again.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::config::lexical_absolute;
use crate::diagnostic::Diagnostic;
use crate::fsio::{Expect, MAX_BASELINE_BYTES, read_capped, write_atomically};

/// The version of the baseline file's shape.
pub const BASELINE_VERSION: u32 = 1;

/// One finding as the baseline keys it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Key {
    /// Path relative to the baseline file's directory, `/`-separated.
    pub path: String,
    /// Rule id.
    pub rule: String,
    /// The prepared IRI; `None` for a problem with the document itself. Shared with the
    /// diagnostic, not copied.
    pub iri: Option<std::sync::Arc<str>>,
    /// 1-based, among the file's findings with the same rule and IRI, in source order.
    pub occurrence: usize,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    version: u32,
    tool: String,
    findings: Vec<Key>,
}

/// (path, rule, iri): what a baseline entry matches, but for its occurrence number.
type Group = (String, String, Option<std::sync::Arc<str>>);

/// A loaded baseline (or one being written), and where its paths are relative to.
#[derive(Debug)]
pub struct Baseline {
    dir: PathBuf,
    cwd: PathBuf,
    /// (path, rule, iri) → how many such findings are baselined (one per entry).
    counts: HashMap<Group, usize>,
    /// The paths (as keyed) of its entries.
    paths: HashSet<String>,
    /// What this run's findings matched: (path, rule, iri) → how many were held back, and the
    /// paths (as keyed) that were checked.
    matched: Mutex<Matched>,
}

#[derive(Debug, Default)]
struct Matched {
    held: HashMap<Group, usize>,
    checked: HashSet<String>,
}

/// Baseline entries that no longer match a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stale {
    /// Entries whose file was checked and had fewer such findings (fixed).
    pub fixed: usize,
    /// Entries whose file no longer exists.
    pub gone: usize,
}

impl Stale {
    /// All of them.
    pub fn total(self) -> usize {
        self.fixed + self.gone
    }
}

impl Baseline {
    fn empty(file: &Path) -> Baseline {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        let dir = lexical_absolute(&cwd, file)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("/"));
        Baseline {
            dir,
            cwd,
            counts: HashMap::new(),
            paths: HashSet::new(),
            matched: Mutex::default(),
        }
    }

    /// An empty baseline whose paths are relative to the current directory: how reports
    /// (SARIF, GitLab) key findings for their fingerprints.
    pub fn in_current_dir() -> Baseline {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        Baseline {
            dir: cwd.clone(),
            cwd,
            counts: HashMap::new(),
            paths: HashSet::new(),
            matched: Mutex::default(),
        }
    }

    /// The keys of one file's diagnostics (in source order), in order: what this baseline
    /// writes for them and matches them by.
    pub fn keys(&self, shown: &str, diagnostics: &[Diagnostic]) -> Vec<Key> {
        self.keys_of(shown, diagnostics.iter().map(|d| (d.rule, d.iri.as_ref())))
    }

    /// The keys of one file's findings given as (rule, IRI), in source order.
    fn keys_of<'d>(
        &self,
        shown: &str,
        findings: impl Iterator<Item = (&'d str, Option<&'d std::sync::Arc<str>>)>,
    ) -> Vec<Key> {
        let path = self.path_key(shown);
        let mut seen: HashMap<(&str, Option<&str>), usize> = HashMap::new();
        findings
            .map(|(rule, iri)| {
                let n = seen.entry((rule, iri.map(|i| &**i))).or_default();
                *n += 1;
                Key {
                    path: path.clone(),
                    rule: rule.to_string(),
                    iri: iri.cloned(),
                    occurrence: *n,
                }
            })
            .collect()
    }

    /// Reads the baseline `file`; a missing, unreadable, corrupt or wrong-version file is an
    /// error that says what to do.
    pub fn read(file: &Path) -> Result<Baseline, String> {
        let shown = file.display();
        let text = read_capped(file, MAX_BASELINE_BYTES).map_err(|e| {
            format!(
                "cannot read baseline {shown}: {e}; create it with `irilint check --write-baseline {shown}`"
            )
        })?;
        // Only the version, the rest passed over without being kept (the whole file as a tree
        // of values took seven times its size: 58 MB of baseline, 523 MB at the peak).
        #[derive(Deserialize)]
        struct Version {
            version: Option<u64>,
        }
        let version = serde_json::from_str::<Version>(&text)
            .ok()
            .and_then(|v| v.version);
        if let Some(v) = version
            && v != u64::from(BASELINE_VERSION)
        {
            return Err(format!(
                "baseline {shown} has version {v}, this irilint reads version {BASELINE_VERSION}; write it again with `--write-baseline`"
            ));
        }
        let parsed: File = serde_json::from_str(&text).map_err(|e| {
            format!(
                "baseline {shown} is not an irilint baseline: {e}; write it again with `--write-baseline`"
            )
        })?;
        if parsed.tool != "irilint" {
            return Err(format!(
                "baseline {shown} was written by `{}`, not irilint; write it again with `irilint check --write-baseline {shown}`",
                crate::iri::chars::escape_unsafe(&parsed.tool)
            ));
        }
        let mut baseline = Baseline::empty(file);
        // One finding per entry: the occurrence numbers order them, the count is what matches
        // (a hand-edited file with occurrences 1 and 3 holds back two, not three).
        let unique: HashSet<Key> = parsed.findings.into_iter().collect();
        for k in unique {
            if !baseline.paths.contains(&k.path) {
                baseline.paths.insert(k.path.clone());
            }
            *baseline.counts.entry((k.path, k.rule, k.iri)).or_default() += 1;
        }
        Ok(baseline)
    }

    /// The baseline's key for a path as reports show it.
    fn path_key(&self, shown: &str) -> String {
        if shown == "-" {
            return shown.to_string();
        }
        let absolute = lexical_absolute(&self.cwd, Path::new(shown));
        let relative = absolute.strip_prefix(&self.dir).unwrap_or(&absolute);
        relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/")
    }

    /// Removes from `diagnostics` (one file's, in source order) those the baseline holds and
    /// returns how many.
    pub fn filter(&self, path: &str, diagnostics: &mut Vec<Diagnostic>) -> usize {
        if self.counts.is_empty() {
            return 0;
        }
        let mut matcher = self.matcher(path);
        let before = diagnostics.len();
        diagnostics.retain(|d| !matcher.holds(d.rule, d.iri.as_ref()));
        matcher.finish();
        before - diagnostics.len()
    }

    /// True when some entry is of the file `path` (as reports show it).
    pub fn has_entries_for(&self, path: &str) -> bool {
        !self.counts.is_empty() && self.paths.contains(&self.path_key(path))
    }

    /// A matcher of the findings of the file `path` (as reports show it), taken one at a time
    /// in source order: what [`Baseline::filter`] does to a list, for findings that are not
    /// all kept.
    pub fn matcher(&self, path: &str) -> Matcher<'_> {
        let path = self.path_key(path);
        Matcher {
            baseline: self,
            any: !self.counts.is_empty() && self.paths.contains(&path),
            path,
            seen: HashMap::new(),
        }
    }

    /// The entries this run found stale: in a checked file, more than its findings matched; or
    /// in a file that no longer exists. Files the run did not check are not judged.
    pub fn stale(&self) -> Stale {
        let matched = self.matched.lock().expect("lock");
        let mut stale = Stale::default();
        for (group, &count) in &self.counts {
            if matched.checked.contains(&group.0) {
                let held = matched.held.get(group).copied().unwrap_or(0);
                stale.fixed += count.saturating_sub(held);
            } else if self.is_gone(&group.0) {
                stale.gone += count;
            }
        }
        stale
    }

    fn is_gone(&self, key: &str) -> bool {
        key != "-" && self.dir.join(key).symlink_metadata().is_err()
    }

    /// Rewrites the baseline `file` without its stale entries (and adds nothing); returns how
    /// many it dropped.
    pub fn prune(&self, file: &Path) -> Result<usize, String> {
        let matched = self.matched.lock().expect("lock");
        let mut findings = Vec::new();
        let mut dropped = 0;
        for (group, &count) in &self.counts {
            let keep = if matched.checked.contains(&group.0) {
                matched.held.get(group).copied().unwrap_or(0).min(count)
            } else if self.is_gone(&group.0) {
                0
            } else {
                count
            };
            dropped += count - keep;
            findings.extend((1..=keep).map(|occurrence| Key {
                path: group.0.clone(),
                rule: group.1.clone(),
                iri: group.2.clone(),
                occurrence,
            }));
        }
        write_keys(file, findings)?;
        Ok(dropped)
    }

    /// Writes `files` (path as shown, diagnostics in source order, the findings not listed) as
    /// the baseline `file`; returns how many findings it holds.
    pub fn write<'a>(
        file: &Path,
        files: impl IntoIterator<
            Item = (
                &'a str,
                &'a [Diagnostic],
                &'a [(&'static str, std::sync::Arc<str>)],
            ),
        >,
    ) -> Result<usize, String> {
        let mut writer = Writer::new(file);
        for (path, diagnostics, unlisted) in files {
            writer.add(path, diagnostics, unlisted);
        }
        writer.finish()
    }
}

/// Matches one file's findings with a baseline, one at a time in source order
/// ([`Baseline::matcher`]); what they matched counts once it is finished.
#[derive(Debug)]
pub struct Matcher<'a> {
    baseline: &'a Baseline,
    /// Whether the baseline has entries of the file.
    any: bool,
    path: String,
    /// How many findings of each group the baseline has were met so far.
    seen: HashMap<Group, usize>,
}

impl Matcher<'_> {
    /// Whether the baseline holds back the next finding of `rule` in the IRI `iri` (`None`
    /// for a problem with the document itself).
    pub fn holds(&mut self, rule: &str, iri: Option<&std::sync::Arc<str>>) -> bool {
        if !self.any {
            return false;
        }
        let group = (self.path.clone(), rule.to_string(), iri.cloned());
        let Some(&held) = self.baseline.counts.get(&group) else {
            return false;
        };
        let n = self.seen.entry(group).or_default();
        *n += 1;
        *n <= held
    }

    /// Records what this file's findings matched. A file may be matched more than once (its
    /// own findings, then the project's; each pass of `--fix`): what a key matched is the
    /// most any matching of it held back.
    pub fn finish(self) {
        let mut matched = self.baseline.matched.lock().expect("lock");
        matched.checked.insert(self.path);
        for (group, n) in self.seen {
            let held = self.baseline.counts.get(&group).copied().unwrap_or(0);
            let m = matched.held.entry(group).or_default();
            *m = (*m).max(n.min(held));
        }
    }
}

/// A baseline being written from files as they are checked: it keeps their keys only (each
/// sharing its IRI with the diagnostic), so that the files' outcomes need not be kept.
#[derive(Debug)]
pub struct Writer {
    file: PathBuf,
    base: Baseline,
    keys: Vec<Key>,
}

impl Writer {
    /// A writer of the baseline `file`, whose paths are relative to its directory.
    pub fn new(file: &Path) -> Writer {
        Writer {
            file: file.to_path_buf(),
            base: Baseline::empty(file),
            keys: Vec::new(),
        }
    }

    /// Adds one file's diagnostics (path as shown, in source order) and the findings it did
    /// not list, as (rule, IRI), after them: an occurrence number counts a key's findings,
    /// whatever their order.
    pub fn add(
        &mut self,
        path: &str,
        diagnostics: &[Diagnostic],
        unlisted: &[(&'static str, std::sync::Arc<str>)],
    ) {
        let listed = diagnostics.iter().map(|d| (d.rule, d.iri.as_ref()));
        let more = unlisted.iter().map(|(rule, iri)| (*rule, Some(iri)));
        self.keys
            .extend(self.base.keys_of(path, listed.chain(more)));
    }

    /// Writes the baseline; returns how many findings it holds.
    pub fn finish(self) -> Result<usize, String> {
        write_keys(&self.file, self.keys)
    }
}

/// Writes `findings` as the baseline `file`, sorted; returns how many.
fn write_keys(file: &Path, mut findings: Vec<Key>) -> Result<usize, String> {
    findings.sort();
    let count = findings.len();
    let baseline = File {
        version: BASELINE_VERSION,
        tool: "irilint".to_string(),
        findings,
    };
    // Written as it is serialized, never held whole beside its keys.
    write_atomically(file, Expect::Anything, |out| {
        let mut out = std::io::BufWriter::new(out);
        crate::escaped_json::to_writer(&baseline, &mut out)?;
        out.flush()
    })
    .map_err(|e| format!("cannot write baseline {}: {e}", file.display()))?;
    Ok(count)
}
