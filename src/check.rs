//! `irilint check`: every input read, decoded, extracted and checked, in parallel, with the
//! results in input order.

use std::io::Read as _;
use std::path::Path;

use rayon::prelude::*;

use crate::baseline::Baseline;
use crate::config::FileSettings;
use crate::diagnostic::{Diagnostic, Location};
use crate::equivalence::{self, Variant};
use crate::extract;
use crate::fsio::describe_io_error;
use crate::iri;
use crate::rules::equivalence::EQUIVALENT_VARIANTS;
use crate::rules::suppression::UNUSED_SUPPRESSION;
use crate::rules::{self, Selection, Severity};
use crate::source::{BINARY_SNIFF_LEN, Format, NotText, Source, binary_at};
use crate::suppressions::Suppressions;
use crate::walk::{Entry, FileError, Input};

/// Renders one file's diagnostics while its source is still in memory.
pub type Render<'a> = &'a (dyn Fn(&Source, &[Diagnostic]) -> String + Sync);

/// Renders the project-level diagnostics that belong to a file (its path given), after the run,
/// when its source is no longer in memory.
pub type RenderProject<'a> = &'a (dyn Fn(&str, &[Diagnostic]) -> String + Sync);

/// What a check run needs besides the inputs.
pub struct CheckOptions<'a> {
    /// The rules that run where no configuration says otherwise ([`check_source`]).
    pub selection: &'a Selection,
    /// Findings already known (`--baseline`): not reported again.
    pub baseline: Option<&'a Baseline>,
    /// Renders one file's diagnostics while its source is still in memory (human output).
    pub render: Option<Render<'a>>,
    /// Renders project-level diagnostics (`equivalent-variants`) after the run.
    pub render_project: Option<RenderProject<'a>>,
    /// Keep the rule and IRI of each finding a file does not list
    /// ([`FileOutcome::unlisted_keys`]): a baseline is being written.
    pub baseline_keys: bool,
    /// What is kept of the absolute IRIs for `equivalent-variants`, where it runs.
    pub variants: Variants<'a>,
}

/// What a check keeps of a document's absolute IRIs for `equivalent-variants`.
#[derive(Clone, Copy, Default)]
pub enum Variants<'a> {
    /// Every one's variant ([`FileOutcome::variants`]): what [`check_project`] groups.
    #[default]
    All,
    /// Only their hashes, handed on as they are made ([`FileOutcome::hashes`]): the first pass
    /// of a run that reads its files twice ([`first_pass`]).
    Hashes,
    /// Only the places the reading wants, handed to it as they are met
    /// ([`FileOutcome::read_as`]): a file read again for them.
    Wanted(&'a equivalence::Reading),
    /// Nothing: the findings were made by a first pass.
    Nothing,
}

impl<'a> CheckOptions<'a> {
    /// Options that run `selection` and only report: no baseline, nothing rendered.
    pub fn new(selection: &'a Selection) -> CheckOptions<'a> {
        CheckOptions {
            selection,
            baseline: None,
            render: None,
            render_project: None,
            baseline_keys: false,
            variants: Variants::All,
        }
    }
}

/// A document waiting in an anonymous temporary file (standard input's, fixed, until it is
/// written to standard output): a run that goes on with other files does not hold it.
#[derive(Debug, Clone)]
pub struct Spooled {
    file: std::sync::Arc<std::fs::File>,
    len: u64,
}

impl PartialEq for Spooled {
    fn eq(&self, other: &Spooled) -> bool {
        std::sync::Arc::ptr_eq(&self.file, &other.file)
    }
}

impl Eq for Spooled {}

impl Spooled {
    /// The first `len` bytes of `file`.
    pub fn new(file: std::fs::File, len: u64) -> Spooled {
        Spooled {
            file: std::sync::Arc::new(file),
            len,
        }
    }

    /// Copies the document to `out`.
    pub fn copy_to(&self, out: &mut dyn std::io::Write) -> std::io::Result<u64> {
        use std::io::{Read, Seek};
        let mut file: &std::fs::File = &self.file;
        file.seek(std::io::SeekFrom::Start(0))?;
        std::io::copy(&mut file.take(self.len), out)
    }
}

/// What fixing did to one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileFixes {
    /// Fixes applied (or, with `--diff`, that would be).
    pub applied: usize,
    /// Remaining diagnostics with an unsafe fix that `--unsafe-fixes` would apply.
    pub unsafe_available: usize,
    /// Fixes left out because a pass check refused them (their diagnostics lose the fix).
    pub refused: usize,
    /// The unified diff, with `--diff`, when something changes.
    pub diff: Option<String>,
    /// The fixed document, for standard input: in a temporary file until its turn comes.
    pub stdout: Option<Spooled>,
    /// Why the fixed document was not written (changed on disk, not writable, ...).
    pub error: Option<String>,
    /// Fixes not applied because the document is a part of a package, which `--fix` does not
    /// write into.
    pub in_package: usize,
}

/// The result for one file.
#[derive(Debug, Default)]
pub struct FileOutcome {
    /// The path as shown.
    pub path: String,
    /// Its diagnostics, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// How many IRIs were found in it.
    pub iris: usize,
    /// How many of them an `allow` pattern matched (no rule ran on them).
    pub allowed: usize,
    /// How many diagnostics the baseline held back.
    pub baselined: usize,
    /// How many diagnostics inline suppression directives silenced.
    pub suppressed: usize,
    /// The document's directives, kept until the project-level rules have run when one of them
    /// may silence `equivalent-variants` (whose findings only exist then).
    pub suppressions: Option<Suppressions>,
    /// The severity of `equivalent-variants` in this file, if it runs here.
    pub variants_severity: Option<Severity>,
    /// The rendered report for it, if a renderer was given.
    pub rendered: String,
    /// Its absolute IRIs' normal forms and places, when `equivalent-variants` runs and
    /// [`Variants::All`] are kept.
    pub variants: Vec<Variant>,
    /// The hashes of its absolute IRIs, with [`Variants::Hashes`].
    pub hashes: Option<equivalence::Hashes>,
    /// With [`Variants::Wanted`], the file of the first pass its reading was taken as.
    pub read_as: Option<u32>,
    /// What `--fix` or `--diff` did to it.
    pub fixes: FileFixes,
    /// Findings past the [`MAX_LISTED`] first, counted per rule and severity, not listed.
    pub unlisted: Vec<(&'static str, Severity, usize)>,
    /// The rule and IRI of each finding of an IRI it does not list, in source order, when
    /// [`CheckOptions::baseline_keys`] asks for them.
    pub unlisted_keys: Vec<(&'static str, std::sync::Arc<str>)>,
}

impl FileOutcome {
    /// About how many bytes it holds: what [`run_ordered`] lets run ahead.
    pub fn held_bytes(&self) -> usize {
        self.diagnostics.len() * 1024
            + self.unlisted_keys.len() * 32
            + self.rendered.len()
            + self.fixes.diff.as_ref().map_or(0, String::len)
            + self.variants.capacity() * std::mem::size_of::<Variant>()
            + self
                .hashes
                .as_ref()
                .map_or(0, equivalence::Hashes::held_bytes)
    }

    /// How many findings it has of each severity, listed or not: (errors, warnings, infos).
    pub fn counts(&self) -> (usize, usize, usize) {
        let mut n = (0, 0, 0);
        let listed = self.diagnostics.iter().map(|d| (d.severity, 1));
        let unlisted = self.unlisted.iter().map(|&(_, s, k)| (s, k));
        for (severity, k) in listed.chain(unlisted) {
            match severity {
                Severity::Error => n.0 += k,
                Severity::Warning => n.1 += k,
                Severity::Info => n.2 += k,
            }
        }
        n
    }
}

/// The result of running something over every input.
#[derive(Debug)]
pub struct Run<T> {
    /// One result per decoded input, in input order.
    pub files: Vec<T>,
    /// Files that could not be read.
    pub errors: Vec<FileError>,
    /// Named files skipped because they are binary, with the reason.
    pub skipped: Vec<FileError>,
    /// How many of `errors` fail the run (exit code 2, once everything else is reported): files
    /// named on the command line (or standard input) that cannot be read, and files found while
    /// walking that cannot be opened or read (a file over `--max-file-size` only when named).
    pub fatal_errors: usize,
}

impl<T> Default for Run<T> {
    fn default() -> Run<T> {
        Run {
            files: Vec::new(),
            errors: Vec::new(),
            skipped: Vec::new(),
            fatal_errors: 0,
        }
    }
}

impl<T> Run<T> {
    /// The inputs that were not read or were skipped, without the files' results.
    pub fn unread(&self) -> Run<()> {
        Run {
            files: Vec::new(),
            errors: self.errors.clone(),
            skipped: self.skipped.clone(),
            fatal_errors: self.fatal_errors,
        }
    }
}

/// The result of a check run.
pub type RunOutcome = Run<FileOutcome>;

/// How inputs are read and decoded.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Forces the format of named files and standard input.
    pub input_format: Option<Format>,
    /// Name (and format, by extension) of standard input.
    pub stdin_filename: Option<String>,
    /// Inputs larger than this many bytes are not read.
    pub max_file_size: u64,
    /// Note where each input's bytes are when they are not its text ([`Loaded::as_read`]), for
    /// `--fix` and `--diff`, which write into them.
    pub keep_bytes: bool,
    /// Standard input, once read, is kept in an anonymous temporary file (0600, in the system's
    /// temporary directory, gone when the run ends) and read from there again: what a run that
    /// reads its inputs twice (`equivalent-variants`) needs of it, instead of every outcome.
    pub stdin_kept: Option<std::sync::Arc<KeptStdin>>,
}

/// Standard input as a run that reads it more than once keeps it ([`LoadOptions::stdin_kept`]).
#[derive(Debug, Default)]
pub struct KeptStdin(std::sync::Mutex<Option<Result<std::fs::File, NotLoaded>>>);

impl KeptStdin {
    /// From now on, standard input reads as `document`: its fixed document, once `--fix` of a
    /// run that reads it twice has fixed it (the read-again of the first pass and the second
    /// pass check the document as written to standard output, not as it came in).
    pub fn replace(&self, document: &Spooled) -> Result<(), String> {
        let file = document.file.try_clone().map_err(|e| {
            format!(
                "cannot keep standard input's fixed document to read it again: {}",
                describe_io_error(&e)
            )
        })?;
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(Ok(file));
        Ok(())
    }

    /// Standard input's bytes: read from the process's standard input the first time (and
    /// put aside), from the file they were put aside in afterwards; the same failure each time
    /// when it could not be read.
    fn read(
        &self,
        first: impl FnOnce() -> Result<Vec<u8>, NotLoaded>,
        display: &str,
    ) -> Result<Vec<u8>, NotLoaded> {
        use std::io::{Read as _, Seek as _, Write as _};
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let failed = |e: &std::io::Error| NotLoaded::Failed {
            error: FileError {
                message: format!(
                    "cannot read standard input again from the temporary file it was kept in: {}",
                    describe_io_error(e)
                ),
                path: display.to_string(),
            },
            named: true,
        };
        match kept.as_mut() {
            Some(Ok(file)) => {
                let mut bytes = Vec::new();
                file.seek(std::io::SeekFrom::Start(0))
                    .and_then(|_| file.read_to_end(&mut bytes))
                    .map_err(|e| failed(&e))?;
                Ok(bytes)
            }
            Some(Err(e)) => Err(e.clone()),
            None => {
                let read = first();
                let keep = match &read {
                    Ok(bytes) => tempfile::tempfile()
                        .and_then(|mut f| f.write_all(bytes).map(|()| f))
                        .map_err(|e| failed(&e)),
                    Err(e) => Err(e.clone()),
                };
                *kept = Some(keep);
                read
            }
        }
    }
}

impl Default for LoadOptions {
    fn default() -> LoadOptions {
        LoadOptions {
            input_format: None,
            stdin_filename: None,
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            keep_bytes: false,
            stdin_kept: None,
        }
    }
}

/// The default of `--max-file-size`: 512 MiB.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 512 << 20;

/// Why an input produced no document.
#[derive(Debug, Clone)]
enum NotLoaded {
    /// Binary; named files carry the reason, walked ones are left out silently (as ripgrep does).
    Skipped(Option<FileError>),
    /// Unreadable; `named` when named on the command line or standard input.
    Failed { error: FileError, named: bool },
}

/// An input read and decoded, with the bytes it was decoded from (what `--fix` rewrites).
#[derive(Debug)]
pub struct Loaded {
    /// The decoded document.
    pub source: Source,
    /// With [`LoadOptions::keep_bytes`], when the bytes as read are not the text's own: where
    /// they are read again (they are not held beside the text).
    pub as_read: Option<AsRead>,
    /// The file, `None` for standard input.
    pub path: Option<std::path::PathBuf>,
    /// A part of a package (`book.epub!OEBPS/ch1.xhtml`): its bytes are not a file's, and
    /// `--fix` does not write them.
    pub in_package: bool,
}

/// The bytes a document was decoded from when they are not its text (another encoding, a BOM,
/// an undecodable sequence), as `--fix` and `--diff` keep them: not in memory beside the text
/// (a file would be held twice), but read again as a stream, from the file or, for standard
/// input, from an anonymous temporary file, each time checked against their fingerprint.
#[derive(Debug)]
pub struct AsRead {
    /// Of the bytes as read.
    pub fingerprint: crate::fsio::Fingerprint,
    /// Standard input's bytes, in an anonymous temporary file (0600); `None`: in the input's
    /// file.
    pub spooled: Option<std::fs::File>,
}

impl AsRead {
    /// `bytes` fingerprinted with `key`, and put in an anonymous temporary file when `spool`.
    pub fn of(bytes: &[u8], key: std::hash::RandomState, spool: bool) -> std::io::Result<AsRead> {
        use std::io::Write as _;
        let spooled = if spool {
            let mut file = tempfile::tempfile()?;
            file.write_all(bytes)?;
            Some(file)
        } else {
            None
        };
        Ok(AsRead {
            fingerprint: crate::fsio::Fingerprint::with_key(bytes, key),
            spooled,
        })
    }
}

impl Loaded {
    /// `source`, decoded from `bytes`, kept as standard input's is for `--fix`: its bytes, when
    /// they are not its text, in an anonymous temporary file.
    pub fn from_stdin(source: Source, bytes: &[u8]) -> std::io::Result<Loaded> {
        let as_read = (bytes != source.text.as_bytes())
            .then(|| AsRead::of(bytes, std::hash::RandomState::new(), true))
            .transpose()?;
        Ok(Loaded {
            source,
            as_read,
            path: None,
            in_package: false,
        })
    }
}

/// What one input gave: a document, or the parts of a package, each handed to `f` as it is
/// decompressed and dropped after.
pub struct Each<T> {
    files: Vec<T>,
    /// Why a package was refused (or not read past a part): an error of the run, with what was
    /// read before it kept.
    refused: Option<FileError>,
    /// The packages inside a package, not opened: each said, as a skipped file is.
    nested: Vec<FileError>,
}

/// For a relationship part of an Office document, the text shown for each external target:
/// the runs that reference it in the part it describes, read again (within the package's
/// limits; a part past them shows nothing here, and is refused when its turn comes).
fn office_shown_texts(
    package: &mut extract::package::Package<'_>,
    rels: &extract::package::Part,
) -> Option<std::sync::Arc<std::collections::HashMap<String, Vec<String>>>> {
    let described = extract::ooxml::described_part(&rels.label)?;
    let by_id = if described.starts_with("xl/worksheets/") {
        excel_link_texts(package, &described)?
    } else {
        let part = package.read_again(&described)?.ok()?;
        extract::ooxml::hyperlink_texts(&String::from_utf8_lossy(&part.bytes))
            .into_iter()
            .map(|(id, text)| (id, vec![text]))
            .collect()
    };
    if by_id.is_empty() {
        return None;
    }
    let rels_text = String::from_utf8_lossy(&rels.bytes);
    // Two relationships may have one target, each shown with its own text.
    let mut shown: std::collections::HashMap<String, Vec<String>> =
        std::collections::HashMap::new();
    for (id, target) in extract::ooxml::external_targets(&rels_text) {
        if let Some(texts) = by_id.get(&id) {
            shown
                .entry(target)
                .or_default()
                .extend(texts.iter().cloned());
        }
    }
    Some(std::sync::Arc::new(shown))
}

/// For an Excel worksheet, the texts each hyperlink's cell shows, by relationship id: the
/// sheet read aside (it is not read for itself), and the shared strings its cells use.
fn excel_link_texts(
    package: &mut extract::package::Package<'_>,
    sheet: &str,
) -> Option<std::collections::HashMap<String, Vec<String>>> {
    use extract::ooxml::CellText;
    let part = package.read_aside(sheet)?.ok()?;
    let links = extract::ooxml::sheet_links(&String::from_utf8_lossy(&part.bytes));
    drop(part);
    let wanted: std::collections::BTreeSet<usize> = links
        .iter()
        .flat_map(|(_, texts)| texts)
        .filter_map(|t| match t {
            CellText::Shared(n) => Some(*n),
            CellText::Inline(_) => None,
        })
        .collect();
    let strings = match wanted.is_empty() {
        true => Default::default(),
        false => match package.read_again("xl/sharedStrings.xml") {
            Some(Ok(sst)) => {
                extract::ooxml::shared_strings(&String::from_utf8_lossy(&sst.bytes), &wanted)
            }
            _ => Default::default(),
        },
    };
    Some(
        links
            .into_iter()
            .map(|(id, texts)| {
                let texts = texts
                    .into_iter()
                    .filter_map(|t| match t {
                        CellText::Shared(n) => strings.get(&n).cloned(),
                        CellText::Inline(s) => Some(s),
                    })
                    .collect();
                (id, texts)
            })
            .collect(),
    )
}

/// An input read: one document, or a package's bytes.
enum Opened {
    Document(Box<Loaded>),
    Package {
        display: String,
        format: Format,
        bytes: Vec<u8>,
        path: Option<std::path::PathBuf>,
    },
}

/// Reads `entry` and hands each document in it to `f`: the file itself, or each part of a
/// package in turn (one part in memory at a time besides the package).
fn load_each<T>(
    entry: &Entry,
    options: &LoadOptions,
    mut f: impl FnMut(Loaded) -> T,
) -> Result<Each<T>, NotLoaded> {
    let (display, format, bytes, path) = match load_input(entry, options)? {
        Opened::Document(loaded) => {
            return Ok(Each {
                files: vec![f(*loaded)],
                refused: None,
                nested: Vec::new(),
            });
        }
        Opened::Package {
            display,
            format,
            bytes,
            path,
        } => (display, format, bytes, path),
    };
    if format == Format::Pdf {
        return load_pdf(&display, &bytes, path, f);
    }
    let limits = extract::package::Limits::for_len(bytes.len());
    let package_format = format;
    let refused = |why: extract::package::Refused| FileError {
        path: display.clone(),
        message: why.0,
    };
    let mut package = match extract::package::Package::open(format, &bytes, limits) {
        Ok(p) => p,
        Err(why) => {
            return Ok(Each {
                files: Vec::new(),
                refused: Some(refused(why)),
                nested: Vec::new(),
            });
        }
    };
    let nested: Vec<FileError> = std::mem::take(&mut package.nested)
        .into_iter()
        .map(|label| FileError {
            path: format!("{display}!{label}"),
            message: "skipped: a package inside a package is not opened (irilint reads one \
                      level); unpack it and check it on its own"
                .to_string(),
        })
        .collect();
    let mut files = Vec::with_capacity(package.chosen.len());
    for k in 0..package.chosen.len() {
        let part = match package.read(k) {
            Ok(part) => part,
            Err(why) => {
                return Ok(Each {
                    files,
                    refused: Some(refused(why)),
                    nested,
                });
            }
        };
        let shown = format!("{display}!{}", part.label);
        // The package's kind decides a part's format; an XHTML part with an XML declaration is
        // read as XML, as a file is.
        let format = match part.format {
            Format::Html => {
                Format::for_file(Path::new(&part.label), &part.bytes).unwrap_or(Format::Html)
            }
            other => other,
        };
        // A part that is binary, or UTF-32, holds no document irilint reads: left out.
        if utf32_bom(&part.bytes).is_some() {
            continue;
        }
        let shown_texts = match (package_format, part.label.ends_with(".rels")) {
            (Format::Ooxml, true) => office_shown_texts(&mut package, &part),
            _ => None,
        };
        let Ok(mut source) = Source::decode_owned(shown, format, part.bytes) else {
            continue;
        };
        source.shown_texts = shown_texts;
        if package_format == Format::OpenDocument {
            // What its links show, read from the part's own text.
            let texts = extract::odf::link_texts(&source.text);
            source.shown_texts = (!texts.is_empty()).then(|| std::sync::Arc::new(texts));
        }
        source.package = Some(package_format);
        files.push(f(Loaded {
            source,
            as_read: None,
            path: path.clone(),
            in_package: true,
        }));
    }
    Ok(Each {
        files,
        refused: None,
        nested,
    })
}

/// Reads a PDF's links and hands each action to `f` as a document ([`extract::pdf`]); an
/// encrypted PDF is skipped with a note, one past the reader's bounds refused (exit 2) with the
/// links read before it kept.
fn load_pdf<T>(
    display: &str,
    bytes: &[u8],
    path: Option<std::path::PathBuf>,
    mut f: impl FnMut(Loaded) -> T,
) -> Result<Each<T>, NotLoaded> {
    let mut files = Vec::new();
    let read = extract::pdf::each_link_source(display, bytes, &mut |source| {
        let shown = source.path.clone();
        files.push((
            shown,
            f(Loaded {
                source,
                as_read: None,
                path: path.clone(),
                in_package: true,
            }),
        ));
    });
    // Reports are sorted by path, as a package's parts are: `page 10` before `page 2`.
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let files = files.into_iter().map(|(_, file)| file).collect();
    let refused = match read {
        Ok(()) => None,
        Err(extract::pdf::NotRead::Encrypted) => {
            return Err(NotLoaded::Skipped(Some(FileError {
                path: display.to_string(),
                message: extract::pdf::ENCRYPTED.to_string(),
            })));
        }
        Err(extract::pdf::NotRead::Refused(why)) => Some(FileError {
            path: display.to_string(),
            message: why.0,
        }),
    };
    Ok(Each {
        files,
        refused,
        nested: Vec::new(),
    })
}

/// Reads and decodes every input in parallel and applies `f` to each document; never stops early.
pub fn for_each_source<T: Send>(
    inputs: &[Entry],
    load: &LoadOptions,
    f: impl Fn(&Source, &FileSettings) -> T + Sync,
) -> Run<T> {
    for_each_loaded(inputs, load, |loaded, settings| f(&loaded.source, settings))
}

/// As [`for_each_source`], handing `f` the bytes and the path as well.
pub fn for_each_loaded<T: Send>(
    inputs: &[Entry],
    load: &LoadOptions,
    f: impl Fn(Loaded, &FileSettings) -> T + Sync,
) -> Run<T> {
    // One job per file: rayon otherwise hands each thread a few long runs of files, and a
    // thread that finishes early cannot take over the rest of the run another is in (the HTML
    // corpus ended with one thread alone for a tenth of its time at -j2).
    let results: Vec<Result<Each<T>, NotLoaded>> = inputs
        .par_iter()
        .with_max_len(1)
        .map(|e| load_each(e, load, |loaded| f(loaded, &e.settings)))
        .collect();
    let mut run = Run::default();
    for r in results {
        match r {
            Ok(each) => {
                run.files.extend(each.files);
                run.skipped.extend(each.nested);
                if let Some(error) = each.refused {
                    run.fatal_errors += 1;
                    run.errors.push(error);
                }
            }
            Err(NotLoaded::Skipped(e)) => run.skipped.extend(e),
            Err(NotLoaded::Failed { error, named }) => {
                run.fatal_errors += usize::from(named);
                run.errors.push(error);
            }
        }
    }
    run
}

/// Checks every input, then runs the project-level rules over all of them.
pub fn run(inputs: &[Entry], load: &LoadOptions, options: &CheckOptions<'_>) -> RunOutcome {
    run_with_progress(inputs, load, options, &|_| {})
}

/// [`run`], calling `file_done` with the number of IRIs of each file as soon as it is checked
/// (from the checking threads, in no particular order): what a progress bar counts.
pub fn run_with_progress(
    inputs: &[Entry],
    load: &LoadOptions,
    options: &CheckOptions<'_>,
    file_done: &(dyn Fn(usize) + Sync),
) -> RunOutcome {
    let mut outcome = for_each_source(inputs, load, |source, settings| {
        let file = check_with(source, settings, options);
        file_done(file.iris);
        file
    });
    check_project(&mut outcome.files, options);
    outcome
}

/// How many files past the last one reported may be checked ahead of it by
/// [`run_ordered`]: what bounds the results held while a slow file is still being checked.
pub const ORDER_WINDOW: usize = 64;

/// How much the outcomes checked ahead of the next file to report may hold, by
/// [`FileOutcome::held_bytes`]: past it, no file but the next one is started.
pub const AHEAD_BUDGET: usize = 16 << 20;

/// How many bytes of input the workers of [`run_ordered`] may be checking at once: a file is
/// not started while others of this many bytes in all are being checked, unless no other is
/// (a larger file is checked alone). Checking a file holds about twice its size, so that
/// `-j N` holds twice the largest file or twice this, not N times the largest file.
pub const IN_FLIGHT_BUDGET: u64 = 16 << 20;

/// The most diagnostics one file lists: past them, its findings are counted
/// ([`FileOutcome::unlisted`]), not held, so that a file of a million findings takes the
/// memory of this many.
pub const MAX_LISTED: usize = 5_000;

/// The most places (a finding's first and its [`Diagnostic::also`]) the findings of one file
/// keep in all: past them, a finding keeps its first place only, and no fix. A finding keeps at
/// most [`rules::MAX_PLACES`], and a file lists at most [`MAX_LISTED`] findings, but the two
/// together allowed five million places (5,000 IRIs of 1,000 hidden characters each, a 20 MB
/// file, took 1.2 GB and a 3.8 GB JSON report).
pub const MAX_FILE_PLACES: usize = 50_000;

/// Checks every input like [`run_with_progress`], but hands each file's outcome to `consume`
/// in input order as soon as it and every file before it are checked, and then drops it: the
/// report is written while the run goes on, and at most [`ORDER_WINDOW`] files' outcomes, of
/// at most [`AHEAD_BUDGET`] bytes between them besides the next one, are held at once, however
/// many files there are. The project-level rules do not run (they need
/// every file: use [`run`]). Returns what `consume` returns and the files that could not be
/// read or were skipped, after those `already` holds (met while walking) (also readable as the iterator goes, [`Ordered::unread`]).
pub fn run_ordered<R>(
    inputs: &[Entry],
    already: Run<()>,
    load: &LoadOptions,
    options: &CheckOptions<'_>,
    file_done: &(dyn Fn(usize) + Sync),
    consume: impl FnOnce(&mut Ordered) -> R,
) -> (R, Run<()>) {
    let check =
        |loaded: Loaded, settings: &FileSettings| check_with(&loaded.source, settings, options);
    run_ordered_with(inputs, already, load, &check, file_done, consume)
}

/// [`run_ordered`] with `per_file` making each file's outcome from its loaded document (what
/// `--fix` and `--diff` do instead of checking only).
pub fn run_ordered_with<R>(
    inputs: &[Entry],
    already: Run<()>,
    load: &LoadOptions,
    per_file: &(dyn Fn(Loaded, &FileSettings) -> FileOutcome + Sync),
    file_done: &(dyn Fn(usize) + Sync),
    consume: impl FnOnce(&mut Ordered) -> R,
) -> (R, Run<()>) {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Condvar, Mutex};

    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let held = AtomicUsize::new(0);
    let check_one = |i: usize| {
        let entry = &inputs[i];
        load_each(entry, load, |loaded| {
            let file = per_file(loaded, &entry.settings);
            file_done(file.iris);
            file
        })
    };
    // One thread (`-j1`): each file is checked when the report asks for it, on this thread,
    // with no hand-over between threads.
    if rayon::current_num_threads() <= 1 {
        let unread = std::cell::RefCell::new(already);
        let (_, rx) = crossbeam_channel::unbounded();
        let mut ordered = Ordered::new(rx, inputs.len(), &unread, &held, &|_| {});
        ordered.inline = Some(&check_one);
        let r = consume(&mut ordered);
        drop(ordered);
        return (r, unread.take());
    }
    // How many outcomes the consumer has taken; a worker waits before taking input `i` until
    // `i < taken + ORDER_WINDOW`. Inputs are taken in order, so the first one not yet
    // consumed is always being checked by a worker that is not waiting: no deadlock.
    let gate = (Mutex::new(0usize), Condvar::new());
    // The bytes of input being checked ([`IN_FLIGHT_BUDGET`]).
    let in_flight = (Mutex::new(0u64), Condvar::new());
    let workers = rayon::current_num_threads().min(inputs.len().max(1));
    let (tx, rx) = crossbeam_channel::unbounded::<(usize, Result<Each<FileOutcome>, NotLoaded>)>();
    let unread = std::cell::RefCell::new(already);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, stop, gate, held, check_one) = (&next, &stop, &gate, &held, &check_one);
            let in_flight = &in_flight;
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= inputs.len() || stop.load(Ordering::Relaxed) {
                        return;
                    }
                    {
                        let (taken, wake) = gate;
                        let mut t = taken.lock().unwrap_or_else(|e| e.into_inner());
                        while i > *t
                            && (i >= *t + ORDER_WINDOW
                                || held.load(Ordering::Relaxed) > AHEAD_BUDGET)
                            && !stop.load(Ordering::Relaxed)
                        {
                            t = wake.wait(t).unwrap_or_else(|e| e.into_inner());
                        }
                    }
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    // Wait until the file's bytes fit with those being checked (its size as
                    // the file system says; standard input's is not known in advance).
                    let size = match &inputs[i].input {
                        crate::walk::Input::File { path, .. } => {
                            std::fs::metadata(path).map_or(0, |m| m.len())
                        }
                        crate::walk::Input::Stdin => 0,
                    };
                    {
                        let (bytes, freed) = in_flight;
                        let mut b = bytes.lock().unwrap_or_else(|e| e.into_inner());
                        while *b > 0 && *b + size > IN_FLIGHT_BUDGET {
                            b = freed.wait(b).unwrap_or_else(|e| e.into_inner());
                        }
                        *b += size;
                    }
                    let result = check_one(i);
                    {
                        let (bytes, freed) = in_flight;
                        *bytes.lock().unwrap_or_else(|e| e.into_inner()) -= size;
                        freed.notify_all();
                    }
                    if let Ok(each) = &result {
                        held.fetch_add(each.held_bytes(), Ordering::Relaxed);
                    }
                    if tx.send((i, result)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let taken = |n| {
            let (taken, wake) = &gate;
            *taken.lock().unwrap_or_else(|e| e.into_inner()) = n;
            wake.notify_all();
        };
        let mut ordered = Ordered::new(rx, inputs.len(), &unread, &held, &taken);
        let r = consume(&mut ordered);
        // What the consumer did not take (it stopped early: a write failed) is not checked.
        stop.store(true, Ordering::Relaxed);
        (ordered.taken)(usize::MAX - ORDER_WINDOW);
        drop(ordered);
        (r, unread.take())
    })
}

/// The outcomes of [`run_ordered`], in input order, as they are checked.
pub struct Ordered<'g> {
    rx: crossbeam_channel::Receiver<(usize, Result<Each<FileOutcome>, NotLoaded>)>,
    pending: std::collections::BTreeMap<usize, Result<Each<FileOutcome>, NotLoaded>>,
    next: usize,
    len: usize,
    unread: &'g std::cell::RefCell<Run<()>>,
    held: &'g std::sync::atomic::AtomicUsize,
    taken: &'g (dyn Fn(usize) + Sync),
    /// The outcomes of a package's parts not yet handed out.
    queue: std::collections::VecDeque<FileOutcome>,
    /// With one thread, what checks input `i` when it is asked for (no workers).
    inline: Option<&'g dyn Fn(usize) -> Result<Each<FileOutcome>, NotLoaded>>,
}

impl<'g> Ordered<'g> {
    /// The inputs met so far that could not be read, or were skipped (all of them once the
    /// iterator has ended); usable while the iterator is lent out.
    pub fn unread(&self) -> &'g std::cell::RefCell<Run<()>> {
        self.unread
    }
}

impl Iterator for Ordered<'_> {
    type Item = FileOutcome;

    fn next(&mut self) -> Option<FileOutcome> {
        loop {
            if let Some(file) = self.queue.pop_front() {
                return Some(file);
            }
            if self.next >= self.len {
                return None;
            }
            if let Some(check) = self.inline {
                let result = check(self.next);
                self.next += 1;
                match result {
                    Ok(each) => self.loaded(each),
                    Err(e) => self.not_loaded(e),
                }
                continue;
            }
            let result = match self.pending.remove(&self.next) {
                Some(result) => result,
                None => match self.rx.recv() {
                    Ok((i, result)) => {
                        self.pending.insert(i, result);
                        continue;
                    }
                    Err(_) => return None,
                },
            };
            self.next += 1;
            if let Ok(each) = &result {
                self.held
                    .fetch_sub(each.held_bytes(), std::sync::atomic::Ordering::Relaxed);
            }
            (self.taken)(self.next);
            match result {
                Ok(each) => self.loaded(each),
                Err(e) => self.not_loaded(e),
            }
        }
    }
}

impl<'g> Ordered<'g> {
    fn new(
        rx: crossbeam_channel::Receiver<(usize, Result<Each<FileOutcome>, NotLoaded>)>,
        len: usize,
        unread: &'g std::cell::RefCell<Run<()>>,
        held: &'g std::sync::atomic::AtomicUsize,
        taken: &'g (dyn Fn(usize) + Sync),
    ) -> Self {
        Ordered {
            rx,
            pending: std::collections::BTreeMap::new(),
            next: 0,
            len,
            unread,
            held,
            taken,
            queue: std::collections::VecDeque::new(),
            inline: None,
        }
    }

    /// Queues what an input gave, and records a refused package.
    fn loaded(&mut self, each: Each<FileOutcome>) {
        self.queue.extend(each.files);
        self.unread.borrow_mut().skipped.extend(each.nested);
        if let Some(error) = each.refused {
            let mut unread = self.unread.borrow_mut();
            unread.fatal_errors += 1;
            unread.errors.push(error);
        }
    }

    /// Records an input that gave no document.
    fn not_loaded(&mut self, e: NotLoaded) {
        match e {
            NotLoaded::Skipped(e) => self.unread.borrow_mut().skipped.extend(e),
            NotLoaded::Failed { error, named } => {
                let mut unread = self.unread.borrow_mut();
                unread.fatal_errors += usize::from(named);
                unread.errors.push(error);
            }
        }
    }
}

impl Each<FileOutcome> {
    fn held_bytes(&self) -> usize {
        self.files.iter().map(FileOutcome::held_bytes).sum()
    }
}

/// Runs the project-level rules (`equivalent-variants`) over checked files, adding their
/// diagnostics to the file each belongs to, and frees what the files kept for them.
pub fn check_project(files: &mut [FileOutcome], options: &CheckOptions<'_>) {
    if files.iter().all(|f| f.variants_severity.is_none()) {
        return;
    }
    let found = {
        let inputs: Vec<(&str, &[Variant])> = files
            .iter()
            .map(|f| (f.path.as_str(), f.variants.as_slice()))
            .collect();
        equivalence::group(&inputs, Severity::Info)
    };
    let mut per_file: Vec<Vec<Diagnostic>> = vec![Vec::new(); files.len()];
    for (i, mut d) in found {
        // Each file's configuration decides the severity of what is reported in it.
        if let Some(severity) = files[i].variants_severity {
            d.severity = severity;
            per_file[i].push(d);
        }
    }
    for (file, added) in files.iter_mut().zip(per_file) {
        add_project_findings(file, added, options);
    }
}

/// Adds to one checked file the project-level diagnostics that belong to it (`added`), with
/// its directives applied to them and its unused directives reported then, and frees what it
/// kept for them.
pub fn add_project_findings(
    file: &mut FileOutcome,
    added: Vec<Diagnostic>,
    options: &CheckOptions<'_>,
) {
    let mut adding = Adding::new(file, options);
    adding.add(added);
    adding.finish();
}

/// A file's project-level diagnostics being added, a batch at a time: each batch has the
/// file's directives and the baseline applied to it, and what is left is listed while the file
/// lists fewer than [`MAX_LISTED`] findings, in the order the batches give them (the report's),
/// and counted past them, as a file's own findings are, so that a file of many findings of
/// `equivalent-variants` is not held whole.
struct Adding<'f, 'o> {
    file: &'f mut FileOutcome,
    options: &'f CheckOptions<'o>,
    suppressions: Option<Suppressions>,
    /// How many more may be listed.
    room: usize,
    added: Vec<Diagnostic>,
}

impl<'f, 'o> Adding<'f, 'o> {
    fn new(file: &'f mut FileOutcome, options: &'f CheckOptions<'o>) -> Adding<'f, 'o> {
        file.variants = Vec::new();
        Adding {
            suppressions: file.suppressions.take(),
            room: MAX_LISTED.saturating_sub(file.diagnostics.len()),
            file,
            options,
            added: Vec::new(),
        }
    }

    fn add(&mut self, mut batch: Vec<Diagnostic>) {
        let file = &mut *self.file;
        if let Some(suppressions) = &mut self.suppressions {
            file.suppressed += suppressions.apply(&mut batch);
        }
        if let Some(baseline) = self.options.baseline {
            // A file's findings of `equivalent-variants` are each of another resource, so of
            // another IRI: a batch at a time matches them as all at once would.
            file.baselined += baseline.filter(&file.path, &mut batch);
        }
        for d in batch {
            if self.added.len() < self.room {
                self.added.push(d);
                continue;
            }
            count_unlisted(&mut file.unlisted, d.rule, d.severity, 1);
            if self.options.baseline_keys
                && let Some(iri) = d.iri
            {
                file.unlisted_keys.push((d.rule, iri));
            }
        }
    }

    fn finish(self) {
        let (file, mut added) = (self.file, self.added);
        if let Some(suppressions) = self.suppressions {
            let room = MAX_LISTED.saturating_sub(file.diagnostics.len() + added.len());
            let (listed, more) = suppressions.unused_up_to(room);
            added.extend(listed);
            if let Some(severity) = suppressions.report_severity().filter(|_| more > 0) {
                count_unlisted(&mut file.unlisted, UNUSED_SUPPRESSION.id, severity, more);
            }
        }
        if added.is_empty() {
            return;
        }
        if let Some(render) = self.options.render_project {
            file.rendered.push_str(&render(&file.path, &added));
        }
        file.diagnostics.extend(added);
        sort(&mut file.diagnostics);
    }
}

/// How many project-level diagnostics are made at a time when a file's are read back.
const PROJECT_BATCH: usize = 1024;

/// The project-level findings of a run, found by a first pass over every file before the
/// second one reports them file by file ([`ProjectFindings::add_to`]): each file's outcome is
/// dropped once its absolute IRIs' fixed-size records are taken ([`equivalence::Record`], put
/// aside in sorted runs in a temporary file past [`RECORDS_HELD`]), the records are merged into
/// a plan per resource written more than one way, and only the files that hold a place of one
/// are read again, for their spellings and places. The plans, the places read again and the
/// findings are put aside in temporary files too ([`equivalence::Planned`]), each file's
/// findings read back when it is reported: the run holds neither every file's outcome, nor
/// every IRI, nor every finding.
#[derive(Debug, Default)]
pub struct ProjectFindings {
    findings: Option<equivalence::Findings>,
    /// The path as shown of each file of the first pass, in report order.
    paths: Vec<String>,
    /// The files with findings not yet added, by path as shown.
    pending: std::sync::Mutex<std::collections::HashMap<String, Vec<u32>>>,
    /// The files that changed between the first pass and their second reading, whose
    /// findings are left out.
    changed: Vec<String>,
    /// Why the findings could not be made, if they could not.
    failed: Option<String>,
}

/// How many records of absolute IRIs (32 bytes each) the first pass of `equivalent-variants`
/// holds before it sorts them and puts them aside: 4 MiB; and as many bytes of its plans, of
/// the places it reads again and of its findings.
pub const RECORDS_HELD: usize = 1 << 17;

impl ProjectFindings {
    /// Adds to `file` (checked again in the second pass) the findings that belong to it, as
    /// [`check_project`] does; an error when they could not be read back from the temporary
    /// file they were put aside in (the file gets none).
    pub fn add_to(&self, file: &mut FileOutcome, options: &CheckOptions<'_>) -> Result<(), String> {
        let numbers = self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&file.path)
            .unwrap_or_default();
        let path = file.path.clone();
        let mut adding = Adding::new(file, options);
        let mut failed = Ok(());
        if let Some(findings) = &self.findings {
            let path_of = |f: u32| self.paths.get(f as usize).map_or("", String::as_str);
            let mut batch = Vec::new();
            for n in numbers {
                let read = findings.each_of_file(n, &path_of, &mut |d| {
                    batch.push(d);
                    if batch.len() >= PROJECT_BATCH {
                        adding.add(std::mem::take(&mut batch));
                    }
                });
                if let Err(e) = read {
                    failed = Err(format!(
                        "the findings of equivalent-variants put aside in a temporary file could not be read back ({}): some of those of {} are left out",
                        crate::fsio::describe_io_error(&e),
                        crate::iri::chars::escape_unsafe(&path)
                    ));
                }
            }
            adding.add(batch);
        }
        adding.finish();
        failed
    }

    /// The files that changed on disk between the first pass and their second reading: the
    /// findings that name one of their IRIs are left out (as shown paths, in report order).
    pub fn changed(&self) -> &[String] {
        &self.changed
    }

    /// Why the findings could not be made (the temporary file failed), if they could not.
    pub fn failed(&self) -> Option<&str> {
        self.failed.as_deref()
    }
}

/// The first pass of a run with project-level rules: `per_file` over every input, in order,
/// each outcome dropped once its variants' records are taken; the project-level findings then.
pub fn first_pass(
    inputs: &[Entry],
    load: &LoadOptions,
    per_file: &(dyn Fn(Loaded, &FileSettings) -> FileOutcome + Sync),
    keep: impl FnMut(&FileOutcome),
) -> ProjectFindings {
    first_pass_held(inputs, load, per_file, keep, RECORDS_HELD)
}

/// [`first_pass`], holding at most `held` records (and 32 times as many bytes of plans, places
/// and findings) before putting them aside.
pub fn first_pass_held(
    inputs: &[Entry],
    load: &LoadOptions,
    per_file: &(dyn Fn(Loaded, &FileSettings) -> FileOutcome + Sync),
    mut keep: impl FnMut(&FileOutcome),
    held: usize,
) -> ProjectFindings {
    let keys = equivalence::Keys::of_process();
    let mut records = equivalence::Records::new(held);
    let mut unread_hashes: Option<std::io::Error> = None;
    // Each file read: its path as shown, the severity of the rule in it, its input, and its
    // number among the documents of that input (a package's parts).
    let (files, _) = run_ordered_with(inputs, Run::default(), load, per_file, &|_| {}, |files| {
        let mut read: Vec<(String, Option<Severity>, usize, u32)> = Vec::new();
        while let Some(mut f) = files.next() {
            keep(&f);
            let file = read.len() as u32;
            // Each IRI's hashes as its worker handed them on ([`Variants::Hashes`]), or its
            // variant (a caller's check that keeps them all).
            for (index, v) in f.variants.iter().enumerate() {
                records.push(keys.record(v, file, index as u32));
            }
            if let Some(hashes) = f.hashes.take() {
                let mut index = 0;
                let each = hashes.each(|key, spelling| {
                    records.push(equivalence::Record {
                        key,
                        spelling,
                        file,
                        index,
                    });
                    index += 1;
                });
                if let Err(e) = each {
                    unread_hashes.get_or_insert(e);
                }
            }
            let input = files.next - 1;
            let part = match read.last() {
                Some(&(_, _, last, part)) if last == input => part + 1,
                _ => 0,
            };
            read.push((
                std::mem::take(&mut f.path),
                f.variants_severity,
                input,
                part,
            ));
        }
        read
    });
    let failed = |e: std::io::Error| ProjectFindings {
        failed: Some(format!(
            "the records of equivalent-variants put aside in a temporary file could not be read back ({}): its findings are left out",
            crate::fsio::describe_io_error(&e)
        )),
        ..ProjectFindings::default()
    };
    if let Some(e) = unread_hashes {
        return failed(e);
    }
    let mut planned = equivalence::Planned::new(held.saturating_mul(32));
    let made = records.each_plan(equivalence::MAX_RELATED, |plan| {
        if let Some(severity) = files[plan.primary.file as usize].1 {
            planned.add(&plan, severity);
        }
    });
    if let Err(e) = made {
        return failed(e);
    }
    // The inputs to read again, each once (a package's parts are read together), with the
    // number of their first document.
    let mut again: Vec<(usize, u32)> = Vec::new();
    for &f in planned.files() {
        let (_, _, input, part) = files[f as usize];
        let first = f - part;
        if again.last().is_none_or(|&(_, last)| last != first) {
            again.push((input, first));
        }
    }
    let entries: Vec<Entry> = again.iter().map(|&(i, _)| inputs[i].clone()).collect();
    let paths = files
        .iter()
        .enumerate()
        .map(|(f, file)| (f as u32, file.0.as_str()));
    let reading = match planned.read_again(paths) {
        Ok(reading) => reading,
        Err(e) => return failed(e),
    };
    let selection = Selection::default();
    let check = CheckOptions {
        variants: Variants::Wanted(&reading),
        ..CheckOptions::new(&selection)
    };
    let reread =
        |loaded: Loaded, settings: &FileSettings| check_with(&loaded.source, settings, &check);
    run_ordered_with(&entries, Run::default(), load, &reread, &|_| {}, |read| {
        let mut last: Option<(usize, u32)> = None;
        while let Some(f) = read.next() {
            let entry = read.next - 1;
            // The first document of an input is its first file; each next one, the next.
            let file = match last {
                Some((e, file)) if e == entry => file + 1,
                _ => again[entry].1,
            };
            last = Some((entry, file));
            // A package whose parts differ from the first reading's: nothing of it is wanted
            // past the files of that input.
            let of_input = files
                .get(file as usize)
                .is_some_and(|&(_, _, input, _)| input == again[entry].0);
            if of_input {
                reading.read(file, f.read_as, &f.variants);
            } else if let Some(taken) = f.read_as {
                reading.read(u32::MAX, Some(taken), &[]);
            }
        }
    });
    let (findings, changed) = match reading.finish() {
        Ok(done) => done,
        Err(e) => return failed(e),
    };
    let mut pending: std::collections::HashMap<String, Vec<u32>> = std::collections::HashMap::new();
    for f in findings.files() {
        pending
            .entry(files[f as usize].0.clone())
            .or_default()
            .push(f);
    }
    let changed = changed
        .into_iter()
        .filter_map(|f| files.get(f as usize).map(|file| file.0.clone()))
        .collect();
    ProjectFindings {
        findings: Some(findings),
        paths: files.into_iter().map(|(path, ..)| path).collect(),
        pending: std::sync::Mutex::new(pending),
        changed,
        failed: None,
    }
}

fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (a.start.text_offset, a.end.text_offset, a.rule).cmp(&(
            b.start.text_offset,
            b.end.text_offset,
            b.rule,
        ))
    });
}

fn load_input(entry: &Entry, options: &LoadOptions) -> Result<Opened, NotLoaded> {
    let configured = entry.settings.format;
    let limit = options.max_file_size;
    // `sniffed`: no format was asked for (by --input-format or the configuration), so that
    // the bytes may say what the file is.
    let (display, bytes, format, explicit, sniffed) = match &entry.input {
        Input::Stdin => {
            let display = options.stdin_filename.clone().unwrap_or_else(|| "-".into());
            let format = options
                .input_format
                .or(configured)
                .or_else(|| Format::from_path(Path::new(&display)))
                .unwrap_or(Format::Text);
            let read = || match read_limited(std::io::stdin().lock(), limit, None, format) {
                Ok(Read::Bytes(bytes)) => Ok(bytes),
                Ok(Read::Binary { nul_at }) => Err(binary(display.clone(), nul_at, true)),
                Ok(Read::TooLarge) => Err(too_large(display.clone(), limit, true)),
                Err(e) => Err(NotLoaded::Failed {
                    error: FileError {
                        message: format!("cannot read standard input: {}", describe_io_error(&e)),
                        path: display.clone(),
                    },
                    named: true,
                }),
            };
            let bytes = match &options.stdin_kept {
                Some(kept) => kept.read(read, &display)?,
                None => read()?,
            };
            let sniffed = options.input_format.or(configured).is_none();
            (display, bytes, format, true, sniffed)
        }
        Input::File { path, explicit } => {
            let display = path.display().to_string();
            let failed = |e: &std::io::Error| NotLoaded::Failed {
                error: FileError {
                    message: format!("cannot read file: {}", describe_io_error(e)),
                    path: display.clone(),
                },
                // Named or found while walking: a file that cannot be read fails the run.
                named: true,
            };
            let file = std::fs::File::open(path).map_err(|e| failed(&e))?;
            let size = file.metadata().map(|m| m.len()).ok();
            if size.is_some_and(|size| size > limit) {
                return Err(too_large(display, limit, *explicit));
            }
            let forced = if *explicit {
                options.input_format
            } else {
                None
            };
            let named_format = forced.or(configured).or_else(|| Format::from_path(path));
            let bytes = match read_limited(file, limit, size, named_format.unwrap_or(Format::Text))
            {
                Ok(Read::Bytes(bytes)) => bytes,
                Ok(Read::Binary { nul_at }) => return Err(binary(display, nul_at, *explicit)),
                Ok(Read::TooLarge) => return Err(too_large(display, limit, *explicit)),
                Err(e) => return Err(failed(&e)),
            };
            let format = forced
                .or(configured)
                .or_else(|| Format::for_file(path, &bytes))
                .unwrap_or(Format::Text);
            let sniffed = forced.or(configured).is_none();
            (display, bytes, format, *explicit, sniffed)
        }
    };
    let path = match &entry.input {
        Input::File { path, .. } => Some(path.clone()),
        Input::Stdin => None,
    };
    // A package by its name or its format, or by its content when its bytes are binary.
    let package = if format.is_package() {
        Some(format)
    } else if bytes.starts_with(extract::pdf::MAGIC) && sniffed {
        // A PDF by its first bytes, whatever its name, unless a format was asked for.
        Some(Format::Pdf)
    } else if binary_at(&bytes).is_some() {
        extract::package::sniff(&bytes)
    } else {
        None
    };
    if let Some(format) = package {
        return Ok(Opened::Package {
            display,
            format,
            bytes,
            path,
        });
    }
    if let Some(which) = utf32_bom(&bytes) {
        // Its BOM begins like UTF-16's: read as UTF-16 it would be NULs between characters,
        // and no finding. Said, and counted as an input that cannot be read.
        return Err(NotLoaded::Failed {
            error: FileError {
                path: display,
                message: format!(
                    "cannot read file: it is {which} (by its byte order mark), which irilint does not read; convert it to UTF-8"
                ),
            },
            named: explicit,
        });
    }
    let not_text = |NotText::Binary { nul_at }| binary(display.clone(), nul_at, explicit);
    if options.keep_bytes {
        // A UTF-8 file is its text: decoded without a copy, or `--fix` would hold it twice.
        // Other bytes are fingerprinted (and standard input's put in a temporary file) before
        // they are decoded in place: `--fix` reads them again as a stream.
        let mut as_read = None;
        let source = Source::decode_aside(display.clone(), format, bytes, &mut |bytes| {
            as_read = Some(AsRead::of(
                bytes,
                std::hash::RandomState::new(),
                path.is_none(),
            ));
        })
        .map_err(not_text)?;
        let as_read = match as_read.transpose() {
            Ok(as_read) => as_read,
            Err(e) => {
                return Err(NotLoaded::Failed {
                    error: FileError {
                        message: format!(
                            "cannot keep standard input in a temporary file to fix it: {}",
                            describe_io_error(&e)
                        ),
                        path: display,
                    },
                    named: true,
                });
            }
        };
        return Ok(Opened::Document(Box::new(Loaded {
            as_read,
            source,
            path,
            in_package: false,
        })));
    }
    // Without --fix the bytes are not needed once decoded: a UTF-8 file becomes its text.
    let source = Source::decode_owned(display.clone(), format, bytes).map_err(not_text)?;
    Ok(Opened::Document(Box::new(Loaded {
        source,
        as_read: None,
        path,
        in_package: false,
    })))
}

/// `UTF-32LE` or `UTF-32BE` when `bytes` begin with that encoding's byte order mark.
fn utf32_bom(bytes: &[u8]) -> Option<&'static str> {
    match bytes.get(..4)? {
        [0xFF, 0xFE, 0, 0] => Some("UTF-32LE"),
        [0, 0, 0xFE, 0xFF] => Some("UTF-32BE"),
        _ => None,
    }
}

/// What reading an input gave.
enum Read {
    Bytes(Vec<u8>),
    /// A NUL byte in the first 8 KiB and no UTF-16 BOM: the rest is not read.
    Binary {
        nul_at: usize,
    },
    /// More than the limit.
    TooLarge,
}

/// Reads `input` whole, but looks at its first 8 KiB before reading further (a binary file is
/// not read past them) and stops past `limit` bytes (`/dev/zero`, `yes | irilint check -`).
/// `size`, a file's length when it was opened, sizes the buffer so that a file is read in a few
/// calls rather than in doubling chunks (it may have grown: the limit still holds). A package
/// (by `format`, or a zip by its first bytes, [`extract::package::sniff`]) is read whole.
fn read_limited(
    mut input: impl std::io::Read,
    limit: u64,
    size: Option<u64>,
    format: Format,
) -> std::io::Result<Read> {
    // One byte more than the size, so that the end is seen without growing the buffer.
    let capacity = size.map_or(0, |s| s.min(limit).saturating_add(1));
    let mut bytes = Vec::with_capacity(usize::try_from(capacity).unwrap_or(0));
    (&mut input)
        .take(BINARY_SNIFF_LEN as u64)
        .read_to_end(&mut bytes)?;
    // UTF-32 is refused by its BOM (`load_input`), not skipped as binary for its NULs.
    if utf32_bom(&bytes).is_some() {
        return Ok(Read::Bytes(bytes));
    }
    let package = format.is_package()
        || bytes.starts_with(extract::package::ZIP_MAGIC)
        || bytes.starts_with(extract::pdf::MAGIC);
    if let Some(nul_at) = binary_at(&bytes).filter(|_| !package) {
        return Ok(Read::Binary { nul_at });
    }
    // Fewer bytes than asked for: the end was reached, and asking again is one more read call
    // per file.
    if bytes.len() < BINARY_SNIFF_LEN {
        return Ok(Read::Bytes(bytes));
    }
    input
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Ok(Read::TooLarge);
    }
    Ok(Read::Bytes(bytes))
}

fn binary(path: String, nul_at: usize, named: bool) -> NotLoaded {
    NotLoaded::Skipped(named.then(|| FileError {
        path,
        message: format!("skipped: binary file (NUL byte at offset {nul_at})"),
    }))
}

fn too_large(path: String, limit: u64, named: bool) -> NotLoaded {
    NotLoaded::Failed {
        error: FileError {
            path,
            message: format!(
                "not read: larger than --max-file-size ({limit} bytes); raise the limit, e.g. --max-file-size {}M",
                (limit >> 20).saturating_mul(2).max(1)
            ),
        },
        named,
    }
}

/// Extracts and checks one decoded document with `options.selection` and no configuration.
pub fn check_source(source: &Source, options: &CheckOptions<'_>) -> FileOutcome {
    let settings = FileSettings {
        selection: options.selection.clone(),
        ..FileSettings::default()
    };
    check_with(source, &settings, options)
}

/// Extracts and checks one decoded document with its configuration's `settings`.
///
/// A file lists its first [`MAX_LISTED`] findings. When it has more, and its directives or
/// the baseline may hold some back (or a baseline is being written), it is checked again with
/// them known, each finding silenced or held back as it is found, before the limit: what is
/// suppressed does not push a finding out of the list, and what is counted can be suppressed.
pub fn check_with(
    source: &Source,
    settings: &FileSettings,
    options: &CheckOptions<'_>,
) -> FileOutcome {
    if let Variants::Wanted(reading) = options.variants {
        return read_again(source, settings, reading);
    }
    let first = collect(source, settings, options.variants, None);
    let mut suppressions = first.suppressions(source, &settings.selection);
    let again = first.overflowed
        && (!suppressions.is_empty()
            || options.baseline_keys
            || options
                .baseline
                .is_some_and(|b| b.has_entries_for(&source.path)));
    if !again {
        return finish(source, settings, options, first, suppressions, None);
    }
    drop(first);
    let mut early = Early {
        suppressions: &mut suppressions,
        baseline: options.baseline.map(|b| b.matcher(&source.path)),
        keys: options.baseline_keys.then(Vec::new),
        suppressed: 0,
        baselined: 0,
    };
    let second = collect(source, settings, options.variants, Some(&mut early));
    let Early {
        baseline,
        keys,
        suppressed,
        baselined,
        ..
    } = early;
    let mut outcome = finish(source, settings, options, second, suppressions, baseline);
    outcome.suppressed += suppressed;
    outcome.baselined += baselined;
    outcome.unlisted_keys = keys.unwrap_or_default();
    outcome
}

/// What a second check of a file applies to each finding as it is found ([`check_with`]).
struct Early<'a, 'b> {
    suppressions: &'a mut Suppressions,
    baseline: Option<crate::baseline::Matcher<'b>>,
    /// The (rule, IRI) of each finding past the listed ones, when a baseline is being written.
    keys: Option<Vec<(&'static str, std::sync::Arc<str>)>>,
    suppressed: usize,
    baselined: usize,
}

/// One pass over a document: its listed findings, and what it counted and found besides.
struct Collected {
    diagnostics: Vec<Diagnostic>,
    unlisted: Vec<(&'static str, Severity, usize)>,
    /// Whether a finding of an IRI was counted, not listed.
    overflowed: bool,
    iris: usize,
    allowed: usize,
    variants: Vec<Variant>,
    hashes: Option<equivalence::Hashes>,
    extraction: extract::Extraction,
}

impl Collected {
    /// The document's directives (none when it has no comment).
    fn suppressions(&self, source: &Source, selection: &Selection) -> Suppressions {
        if self.extraction.comments.is_empty() && source.format != Format::Text {
            return Suppressions::default();
        }
        Suppressions::parse(source, &self.extraction.comments, selection)
    }
}

/// Extracts the IRIs of `source` and checks each as it is found, listing the first
/// [`MAX_LISTED`] findings; with `early`, the findings it silences or holds back are dropped
/// first.
fn collect(
    source: &Source,
    settings: &FileSettings,
    keep: Variants<'_>,
    mut early: Option<&mut Early>,
) -> Collected {
    let selection = &settings.selection;
    let mut diagnostics = Vec::new();
    let variants_severity = selection.severity_of(EQUIVALENT_VARIANTS.id);
    let mut variants = Vec::new();
    let mut hashes = (variants_severity.is_some() && matches!(keep, Variants::Hashes))
        .then(equivalence::Hashes::default);
    let (mut iris, mut allowed) = (0, 0);
    let mut strings = crate::diagnostic::Strings::default();
    let mut unlisted = Vec::new();
    let mut overflowed = false;
    let mut places = 0;
    // Each IRI is checked as it is found and then dropped: only findings are kept.
    let extraction = extract::extract_each(source, &mut |occ| {
        iris += 1;
        if !settings.allow.is_empty() && settings.allows(&occ.iri) {
            allowed += 1;
            return;
        }
        let parsed = iri::analyze(&occ.checked_text());
        let mut findings = rules::check_occurrence(source, &occ, &parsed, selection);
        if let Some(early) = early.as_deref_mut() {
            // A silenced finding's withheld ones speak in its place, unless silenced too
            // ([`crate::suppressions::Suppressions::apply`]); one the baseline holds back keeps
            // them withheld: the baseline knows the host's problem.
            let mut pending: Vec<rules::Finding> = findings.drain(..).rev().collect();
            while let Some(mut f) = pending.pop() {
                let start = Location::of(source, occ.map.to_source(f.range.clone()).start);
                if early.suppressions.silences(f.rule.id, &start) {
                    early.suppressed += 1;
                    pending.extend(f.withheld.into_iter().rev());
                } else if early
                    .baseline
                    .as_mut()
                    .is_some_and(|b| b.holds(f.rule.id, Some(&occ.iri)))
                {
                    early.baselined += 1;
                } else {
                    f.speak();
                    findings.push(f);
                }
            }
        }
        for f in &mut findings {
            // Past the file's budget of places, a finding keeps its first place only (its
            // message already counts the others) and no fix.
            let room = MAX_FILE_PLACES.saturating_sub(places + 1);
            if f.also.len() > room {
                f.more += f.also.len() - room;
                f.also.truncate(room);
                f.also.shrink_to_fit();
                f.fix = None;
            }
            places += 1 + f.also.len();
        }
        if diagnostics.len() + findings.len() > MAX_LISTED {
            overflowed = true;
            let room = MAX_LISTED.saturating_sub(diagnostics.len());
            for f in findings.drain(room.min(findings.len())..) {
                count_unlisted(&mut unlisted, f.rule.id, f.severity, 1);
                if let Some(keys) = early.as_deref_mut().and_then(|e| e.keys.as_mut()) {
                    keys.push((f.rule.id, occ.iri.clone()));
                }
            }
        }
        if !findings.is_empty() {
            let shared: std::sync::Arc<str> = occ.iri.clone();
            for mut finding in findings {
                // Listed: its words are built now (those only counted above never are).
                finding.speak();
                diagnostics.push(Diagnostic::new(
                    source,
                    &occ,
                    &shared,
                    finding,
                    &mut strings,
                ));
            }
        }
        if variants_severity.is_some() && takes_part(&occ, &parsed) {
            match (keep, &mut hashes) {
                (Variants::All, _) => variants.push(variant_of(source, &occ, &parsed)),
                (_, Some(hashes)) => {
                    let v = variant_of(source, &occ, &parsed);
                    let (key, spelling) = equivalence::Keys::of_process().hashes(&v);
                    hashes.push(key, spelling);
                }
                _ => {}
            }
        }
    });
    Collected {
        diagnostics,
        unlisted,
        overflowed,
        iris,
        allowed,
        variants,
        hashes,
        extraction,
    }
}

/// Whether `occ` (parsed as `parsed`) takes part in `equivalent-variants`: an IRI with a
/// template placeholder is not known enough to compare.
fn takes_part(occ: &extract::Occurrence, parsed: &iri::Iri) -> bool {
    occ.placeholders.is_empty() && equivalence::takes_part(parsed)
}

/// The variant of `occ`, which [`takes_part`].
fn variant_of(source: &Source, occ: &extract::Occurrence, parsed: &iri::Iri) -> Variant {
    let span = occ.map.source_range();
    // Spelled as §3.1 step 1b reads it out of a legacy encoding.
    let as_read = rules::legacy_nfc(source, occ);
    equivalence::variant(
        &occ.iri,
        parsed,
        as_read,
        Location::of(source, span.start),
        Location::of(source, span.end),
    )
}

/// A document of the first pass read again for the places of `equivalent-variants` that
/// `reading` wants of it: each handed on as it is met, nothing else kept (the findings of
/// every rule were made by the first pass, and are made again by the report's). A document
/// whose path two files of the run share keeps its variants, for the run's order to say which
/// file it is.
fn read_again(
    source: &Source,
    settings: &FileSettings,
    reading: &equivalence::Reading,
) -> FileOutcome {
    let outcome = |variants, read_as| FileOutcome {
        path: source.path.clone(),
        variants_severity: settings.selection.severity_of(EQUIVALENT_VARIANTS.id),
        variants,
        read_as,
        ..FileOutcome::default()
    };
    if settings
        .selection
        .severity_of(EQUIVALENT_VARIANTS.id)
        .is_none()
    {
        return outcome(Vec::new(), None);
    }
    let mut file = match reading.start(&source.path) {
        equivalence::Start::Nothing => return outcome(Vec::new(), None),
        equivalence::Start::File(file) => Some(file),
        equivalence::Start::Ambiguous => None,
    };
    let mut variants = Vec::new();
    extract::extract_each(source, &mut |occ| {
        if !settings.allow.is_empty() && settings.allows(&occ.iri) {
            return;
        }
        let parsed = iri::analyze(&occ.checked_text());
        if !takes_part(&occ, &parsed) {
            return;
        }
        match &mut file {
            Some(file) if file.wants() => file.iri(Some(&variant_of(source, &occ, &parsed))),
            Some(file) => file.iri(None),
            None => variants.push(variant_of(source, &occ, &parsed)),
        }
    });
    outcome(variants, file.map(equivalence::FileReading::finish))
}

/// Adds the document's own problems and the unused directives to what `collect` listed,
/// silences and holds back what the directives and the baseline do (the document's problems
/// only, with `matcher`: the IRIs' findings were matched as they were found), and renders it.
fn finish(
    source: &Source,
    settings: &FileSettings,
    options: &CheckOptions<'_>,
    collected: Collected,
    mut found: Suppressions,
    matcher: Option<crate::baseline::Matcher<'_>>,
) -> FileOutcome {
    let selection = &settings.selection;
    let variants_severity = selection.severity_of(EQUIVALENT_VARIANTS.id);
    let Collected {
        mut diagnostics,
        mut unlisted,
        iris,
        allowed,
        variants,
        hashes,
        extraction,
        ..
    } = collected;
    let document_problems = rules::check_document(source, selection);
    let mut problems = Vec::new();
    for problem in extraction.problems.iter().chain(&document_problems) {
        if let Some(severity) = selection.severity_of(problem.rule) {
            let severity = if problem.milder {
                severity.min(Severity::Warning)
            } else {
                severity
            };
            problems.push(Diagnostic::from_problem(source, problem, severity));
        }
    }
    let mut suppressions = None;
    let mut suppressed = 0;
    if !found.is_empty() {
        if matcher.is_some() {
            suppressed = found.apply(&mut problems);
        } else {
            diagnostics.append(&mut problems);
            suppressed = found.apply(&mut diagnostics);
        }
    }
    let mut baselined = 0;
    // The findings of IRIs were matched as they were found, or are matched below.
    let matched_early = matcher.is_some();
    if let Some(mut matcher) = matcher {
        let before = problems.len();
        problems.retain(|d| !matcher.holds(d.rule, d.iri.as_ref()));
        baselined = before - problems.len();
        matcher.finish();
    }
    diagnostics.append(&mut problems);
    if !found.is_empty() {
        if variants_severity.is_some() && found.may_cover(EQUIVALENT_VARIANTS.id) {
            suppressions = Some(found);
        } else {
            let room = MAX_LISTED.saturating_sub(diagnostics.len());
            let (listed, more) = found.unused_up_to(room);
            diagnostics.extend(listed);
            if let Some(severity) = found.report_severity().filter(|_| more > 0) {
                count_unlisted(&mut unlisted, UNUSED_SUPPRESSION.id, severity, more);
            }
        }
    }
    sort(&mut diagnostics);
    let baselined = baselined
        + options
            .baseline
            .filter(|_| !matched_early)
            .map_or(0, |b| b.filter(&source.path, &mut diagnostics));
    let rendered = options
        .render
        .map(|render| render(source, &diagnostics))
        .unwrap_or_default();
    FileOutcome {
        path: source.path.clone(),
        diagnostics,
        iris,
        allowed,
        baselined,
        suppressed,
        suppressions,
        variants_severity,
        rendered,
        variants,
        hashes,
        read_as: None,
        fixes: Default::default(),
        unlisted,
        unlisted_keys: Vec::new(),
    }
}

/// Counts `n` more findings of `rule` that are not listed.
fn count_unlisted(
    unlisted: &mut Vec<(&'static str, Severity, usize)>,
    rule: &'static str,
    severity: Severity,
    n: usize,
) {
    match unlisted
        .iter_mut()
        .find(|(r, s, _)| *r == rule && *s == severity)
    {
        Some(entry) => entry.2 += n,
        None => unlisted.push((rule, severity, n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unreadable_file_is_reported_and_the_run_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("good.txt");
        std::fs::write(&good, "http://a/\u{202E}\n").unwrap();
        let inputs = [dir.path().join("vanished.txt"), good].map(|path| Entry {
            input: Input::File {
                path,
                explicit: false,
            },
            settings: Default::default(),
        });
        let selection = Selection::default();
        let options = CheckOptions::new(&selection);
        let outcome = run(&inputs, &LoadOptions::default(), &options);
        assert_eq!(outcome.files.len(), 1);
        assert_eq!(outcome.files[0].diagnostics.len(), 1);
        assert_eq!(outcome.errors.len(), 1);
        assert!(outcome.errors[0].path.ends_with("vanished.txt"));
        assert_eq!(
            outcome.errors[0].message,
            "cannot read file: no such file or directory"
        );
    }
}
