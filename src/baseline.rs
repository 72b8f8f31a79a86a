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
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::config::lexical_absolute;
use crate::diagnostic::Diagnostic;
use crate::fsio::{Expect, MAX_BASELINE_BYTES, open_capped, write_atomically};

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

/// The baseline file as it is written (it is read as it comes, by [`Loader`]).
#[derive(Serialize)]
struct File {
    version: u32,
    tool: String,
    findings: Vec<Key>,
}

/// (path, rule, iri), the path and the rule by their numbers in the baseline's [`Names`]: what
/// a baseline entry matches, but for its occurrence number.
type Group = (u32, u32, Option<Arc<str>>);

/// Names each held once, numbered in the order they were met (a baseline's paths and rules:
/// each entry holds two numbers, not two strings).
#[derive(Debug, Default)]
struct Names {
    all: Vec<Arc<str>>,
    numbers: HashMap<Arc<str>, u32>,
}

impl Names {
    fn number(&self, name: &str) -> Option<u32> {
        self.numbers.get(name).copied()
    }

    fn name(&self, number: u32) -> &str {
        &self.all[number as usize]
    }

    /// The number of `name`, given one if it has none. (More names than `u32` numbers would
    /// take more than the size a baseline may have.)
    fn intern(&mut self, name: String) -> u32 {
        if let Some(n) = self.number(&name) {
            return n;
        }
        let n = u32::try_from(self.all.len()).unwrap_or(u32::MAX);
        let name: Arc<str> = name.into();
        self.all.push(name.clone());
        self.numbers.insert(name, n);
        n
    }
}

/// A loaded baseline (or one being written), and where its paths are relative to.
#[derive(Debug)]
pub struct Baseline {
    dir: PathBuf,
    cwd: PathBuf,
    /// (path, rule, iri) → how many such findings are baselined (one per entry).
    counts: HashMap<Group, usize>,
    /// The paths (as keyed) and the rules of its entries.
    paths: Names,
    rules: Names,
    /// What this run's findings matched: (path, rule, iri) → how many were held back, and the
    /// paths (as keyed) that were checked.
    matched: Mutex<Matched>,
}

#[derive(Debug, Default)]
struct Matched {
    held: HashMap<Group, usize>,
    /// The paths of its entries that were checked.
    checked: HashSet<u32>,
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
            paths: Names::default(),
            rules: Names::default(),
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
            paths: Names::default(),
            rules: Names::default(),
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
        let reader = open_capped(file, MAX_BASELINE_BYTES).map_err(|e| {
            format!(
                "cannot read baseline {shown}: {e}; create it with `irilint check --write-baseline {shown}`"
            )
        })?;
        // Read as it comes, each entry counted as it is read: neither the file's text nor its
        // entries are held (58 MB of baseline took 523 MB as a tree of values, then 198 MB as
        // its text, its entries and their set).
        let mut baseline = Baseline::empty(file);
        let mut loader = Loader {
            baseline: &mut baseline,
            odd: HashSet::new(),
            refused: None,
        };
        let mut json = serde_json::Deserializer::from_reader(reader);
        let read = serde::de::DeserializeSeed::deserialize(&mut loader, &mut json)
            .and_then(|()| json.end());
        match (loader.refused.take(), read) {
            (Some(Refused::Version(v)), _) => Err(format!(
                "baseline {shown} has version {v}, this irilint reads version {BASELINE_VERSION}; write it again with `--write-baseline`"
            )),
            (Some(Refused::Tool(tool)), _) => Err(format!(
                "baseline {shown} was written by `{}`, not irilint; write it again with `irilint check --write-baseline {shown}`",
                crate::iri::chars::escape_unsafe(&tool)
            )),
            (None, Err(e)) => Err(format!(
                "baseline {shown} is not an irilint baseline: {e}; write it again with `--write-baseline`"
            )),
            (None, Ok(())) => {
                loader.finish();
                Ok(baseline)
            }
        }
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
        !self.counts.is_empty() && self.paths.number(&self.path_key(path)).is_some()
    }

    /// A matcher of the findings of the file `path` (as reports show it), taken one at a time
    /// in source order: what [`Baseline::filter`] does to a list, for findings that are not
    /// all kept.
    pub fn matcher(&self, path: &str) -> Matcher<'_> {
        Matcher {
            baseline: self,
            path: self.paths.number(&self.path_key(path)),
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
            } else if self.is_gone(self.paths.name(group.0)) {
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
            } else if self.is_gone(self.paths.name(group.0)) {
                0
            } else {
                count
            };
            dropped += count - keep;
            findings.extend((1..=keep).map(|occurrence| Key {
                path: self.paths.name(group.0).to_string(),
                rule: self.rules.name(group.1).to_string(),
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
    /// The file's path's number, when the baseline has entries of it.
    path: Option<u32>,
    /// How many findings of each group the baseline has were met so far.
    seen: HashMap<Group, usize>,
}

impl Matcher<'_> {
    /// Whether the baseline holds back the next finding of `rule` in the IRI `iri` (`None`
    /// for a problem with the document itself).
    pub fn holds(&mut self, rule: &str, iri: Option<&std::sync::Arc<str>>) -> bool {
        let (Some(path), Some(rule)) = (self.path, self.baseline.rules.number(rule)) else {
            return false;
        };
        let group = (path, rule, iri.cloned());
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
        matched.checked.extend(self.path);
        for (group, n) in self.seen {
            let held = self.baseline.counts.get(&group).copied().unwrap_or(0);
            let m = matched.held.entry(group).or_default();
            *m = (*m).max(n.min(held));
        }
    }
}

/// Why a baseline was refused for what it says rather than for its shape.
enum Refused {
    Version(u64),
    Tool(String),
}

/// Reads a baseline file into a [`Baseline`] as it comes: its version and tool checked as they
/// are met (first in a file irilint wrote), each entry counted as it is read.
struct Loader<'a> {
    baseline: &'a mut Baseline,
    /// The entries whose occurrence number did not follow the ones read before it, by group
    /// (those written by irilint do, sorted: this stays empty), kept to tell an entry written
    /// twice from a new one. An entry counts once, whatever its number: a hand-edited file with
    /// occurrences 1 and 3 holds back two findings, not three.
    odd: HashSet<(Group, usize)>,
    refused: Option<Refused>,
}

impl Loader<'_> {
    /// Counts one entry; while its group's entries are numbered 1, 2, 3, … in order, the count
    /// is all that is kept of them.
    fn add(&mut self, key: Key) {
        let group = (
            self.baseline.paths.intern(key.path),
            self.baseline.rules.intern(key.rule),
            key.iri,
        );
        let occurrence = key.occurrence;
        let counts = &mut self.baseline.counts;
        let Some(run) = counts.get_mut(&group) else {
            if occurrence != 1 {
                self.odd.insert((group.clone(), occurrence));
            }
            counts.insert(group, usize::from(occurrence == 1));
            return;
        };
        if (1..=*run).contains(&occurrence) {
            return;
        }
        if occurrence != *run + 1 {
            self.odd.insert((group, occurrence));
            return;
        }
        *run += 1;
        // The ones read before that now follow.
        if !self.odd.is_empty() {
            while self.odd.remove(&(group.clone(), *run + 1)) {
                *run += 1;
            }
        }
    }

    /// Adds the entries that never followed to their groups' counts.
    fn finish(self) {
        for (group, _) in self.odd {
            *self.baseline.counts.entry(group).or_default() += 1;
        }
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for &mut Loader<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for &mut Loader<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an irilint baseline")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        use serde::de::Error;
        const FIELDS: &[&str] = &["version", "tool", "findings"];
        let mut met = [false; 3];
        while let Some(field) = map.next_key::<String>()? {
            let Some(i) = FIELDS.iter().position(|f| *f == field) else {
                return Err(A::Error::unknown_field(&field, FIELDS));
            };
            if std::mem::replace(&mut met[i], true) {
                return Err(A::Error::duplicate_field(FIELDS[i]));
            }
            match i {
                0 => {
                    let version: u64 = map.next_value()?;
                    if version != u64::from(BASELINE_VERSION) {
                        self.refused = Some(Refused::Version(version));
                        return Err(A::Error::custom("refused"));
                    }
                }
                1 => {
                    let tool: String = map.next_value()?;
                    if tool != "irilint" {
                        self.refused = Some(Refused::Tool(tool));
                        return Err(A::Error::custom("refused"));
                    }
                }
                _ => map.next_value_seed(Entries(&mut *self))?,
            }
        }
        match met.iter().position(|m| !m) {
            Some(i) => Err(A::Error::missing_field(FIELDS[i])),
            None => Ok(()),
        }
    }
}

/// The `findings` of a baseline file, each counted by the [`Loader`] as it is read.
struct Entries<'l, 'a>(&'l mut Loader<'a>);

impl<'de> serde::de::DeserializeSeed<'de> for Entries<'_, '_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Entries<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list of findings")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(key) = seq.next_element::<Key>()? {
            self.0.add(key);
        }
        Ok(())
    }
}

/// A baseline being written from files as they are checked. Each file's keys are sorted and
/// put aside in an anonymous temporary file as it is added, and only where they are is kept
/// (its path and their place), so that neither the files' outcomes nor their keys are held:
/// the baseline is written from there at the end, in the order of its paths. Holding every
/// key took 85 MB for a baseline of 66 MB (100 files of 4,000 findings), growing with the run.
#[derive(Debug)]
pub struct Writer {
    file: PathBuf,
    base: Baseline,
    /// The keys put aside, each file's as lines of JSON `[rule, iri, occurrence]`.
    spill: Option<std::io::BufWriter<std::fs::File>>,
    /// Where each file's keys are in `spill`: its path's key, their offset and their number.
    chunks: Vec<(String, u64, usize)>,
    /// How many bytes `spill` holds.
    spilled: u64,
    /// Why the keys could not be put aside, if they could not.
    failed: Option<String>,
}

impl Writer {
    /// A writer of the baseline `file`, whose paths are relative to its directory.
    pub fn new(file: &Path) -> Writer {
        Writer {
            file: file.to_path_buf(),
            base: Baseline::empty(file),
            spill: None,
            chunks: Vec::new(),
            spilled: 0,
            failed: None,
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
        let mut keys = self.base.keys_of(path, listed.chain(more));
        if keys.is_empty() || self.failed.is_some() {
            return;
        }
        keys.sort();
        let mut lines = Vec::new();
        for k in &keys {
            let entry = (&k.rule, k.iri.as_deref(), k.occurrence);
            serde_json::to_writer(&mut lines, &entry).expect("writing to memory cannot fail");
            lines.push(b'\n');
        }
        let spill = match &mut self.spill {
            Some(spill) => spill,
            None => match tempfile::tempfile() {
                Ok(f) => self.spill.insert(std::io::BufWriter::new(f)),
                Err(e) => {
                    self.failed = Some(format!("cannot create a temporary file: {e}"));
                    return;
                }
            },
        };
        if let Err(e) = spill.write_all(&lines) {
            self.failed = Some(format!("cannot write a temporary file: {e}"));
            return;
        }
        let path = keys.swap_remove(0).path;
        self.chunks.push((path, self.spilled, keys.len() + 1));
        self.spilled += lines.len() as u64;
    }

    /// Writes the baseline; returns how many findings it holds.
    pub fn finish(mut self) -> Result<usize, String> {
        let failed = |e: String| format!("cannot write baseline {}: {e}", self.file.display());
        if let Some(e) = self.failed.take() {
            return Err(failed(e));
        }
        let spill = match self.spill.take().map(std::io::BufWriter::into_inner) {
            Some(Ok(f)) => Some(f),
            Some(Err(e)) => return Err(failed(format!("cannot write a temporary file: {e}"))),
            None => None,
        };
        // The order of the paths is the baseline's (its keys sort by path first); a file
        // given twice has its keys merged.
        self.chunks.sort_by(|a, b| a.0.cmp(&b.0));
        let count = self.chunks.iter().map(|c| c.2).sum();
        let baseline = Spilled {
            version: BASELINE_VERSION,
            tool: "irilint",
            findings: SpilledKeys {
                spill: std::cell::RefCell::new(spill),
                chunks: &self.chunks,
            },
        };
        write_atomically(&self.file, Expect::Anything, |out| {
            let mut out = std::io::BufWriter::new(out);
            crate::escaped_json::to_writer(&baseline, &mut out)?;
            out.flush()
        })
        .map_err(failed)?;
        Ok(count)
    }
}

/// The baseline file as [`Writer`] writes it: the same JSON as [`File`], its findings read
/// back from where they were put aside as they are written.
#[derive(Serialize)]
struct Spilled<'a> {
    version: u32,
    tool: &'a str,
    findings: SpilledKeys<'a>,
}

/// The keys [`Writer`] put aside, in order.
struct SpilledKeys<'a> {
    spill: std::cell::RefCell<Option<std::fs::File>>,
    chunks: &'a [(String, u64, usize)],
}

impl SpilledKeys<'_> {
    /// The keys of the chunk `(path, offset, count)`, read back.
    fn read(&self, (path, offset, count): &(String, u64, usize)) -> std::io::Result<Vec<Key>> {
        use std::io::{BufRead, Seek};
        let mut spill = self.spill.borrow_mut();
        let file = spill
            .as_mut()
            .ok_or_else(|| std::io::Error::other("no keys"))?;
        file.seek(std::io::SeekFrom::Start(*offset))?;
        let mut lines = std::io::BufReader::new(file).lines();
        (0..*count)
            .map(|_| {
                let line = lines
                    .next()
                    .unwrap_or_else(|| Err(std::io::Error::other("keys missing")))?;
                let (rule, iri, occurrence): (String, Option<Arc<str>>, usize) =
                    serde_json::from_str(&line)?;
                Ok(Key {
                    path: path.clone(),
                    rule,
                    iri,
                    occurrence,
                })
            })
            .collect()
    }
}

impl Serialize for SpilledKeys<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeSeq};
        let total = self.chunks.iter().map(|c| c.2).sum();
        let mut seq = serializer.serialize_seq(Some(total))?;
        // Runs of chunks of the same path (one, unless a file was given twice).
        for run in self.chunks.chunk_by(|a, b| a.0 == b.0) {
            let mut keys = Vec::new();
            for chunk in run {
                keys.extend(self.read(chunk).map_err(S::Error::custom)?);
            }
            if run.len() > 1 {
                keys.sort();
            }
            for key in &keys {
                seq.serialize_element(key)?;
            }
        }
        seq.end()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// How many findings of `iri` (rule `r`, file `a.txt` beside the baseline) the baseline
    /// holds back.
    fn held(baseline: &Baseline, beside: &Path, iri: &str) -> usize {
        let iri: Arc<str> = iri.into();
        let mut matcher = baseline.matcher(beside.join("a.txt").to_str().unwrap());
        (0..10)
            .take_while(|_| matcher.holds("r", Some(&iri)))
            .count()
    }

    /// Each entry holds back one finding, counted as it is read, in any order: an entry written
    /// twice counts once, and occurrence numbers need not follow one another.
    #[test]
    fn entries_are_counted_as_they_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("b.json");
        let entry = |iri: &str, occurrence: usize| {
            format!(
                "{{\"path\":\"a.txt\",\"rule\":\"r\",\"iri\":\"{iri}\",\"occurrence\":{occurrence}}}"
            )
        };
        let entries = [
            // In order, as irilint writes them.
            entry("in-order", 1),
            entry("in-order", 2),
            entry("in-order", 3),
            // Out of order: 3, 1, 2.
            entry("shuffled", 3),
            entry("shuffled", 1),
            entry("shuffled", 2),
            // The same entry twice, and again after the next.
            entry("twice", 1),
            entry("twice", 1),
            entry("twice", 2),
            entry("twice", 1),
            // A gap, and numbers that start elsewhere.
            entry("gap", 1),
            entry("gap", 3),
            entry("gap", 3),
            entry("elsewhere", 0),
            entry("elsewhere", 7),
        ];
        std::fs::write(
            &file,
            format!(
                "{{\"version\":1,\"tool\":\"irilint\",\"findings\":[{}]}}",
                entries.join(",")
            ),
        )
        .unwrap();
        let baseline = Baseline::read(&file).unwrap();
        let got: Vec<usize> = ["in-order", "shuffled", "twice", "gap", "elsewhere", "none"]
            .iter()
            .map(|iri| held(&baseline, dir.path(), iri))
            .collect();
        assert_eq!(got, [3, 3, 2, 2, 2, 0]);
        // Another rule, another file: nothing.
        let iri: Arc<str> = "in-order".into();
        let [a, b] = ["a.txt", "b.txt"].map(|f| dir.path().join(f).to_str().unwrap().to_string());
        assert!(!baseline.matcher(&a).holds("other", Some(&iri)));
        assert!(!baseline.matcher(&b).holds("r", Some(&iri)));
        assert!(baseline.has_entries_for(&a) && !baseline.has_entries_for(&b));
    }
}
