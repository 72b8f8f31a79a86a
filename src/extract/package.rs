//! Packages: zip files whose parts are documents (EPUB, OpenDocument, Office Open XML), read in
//! memory from the bytes given.
//!
//! A package is opened from its bytes (no I/O here), its central directory is checked before
//! any part is read (entry count, declared sizes, encryption), and each part chosen for the
//! package's kind is decompressed when asked for, with its real size bounded as it is read
//! (declared sizes may lie): per part, in all, and by compression ratio. The bounds follow the
//! run's memory bound, 2 × the file + 50 MB: one part is held at a time, and checking it holds
//! about twice its size. An entry's name is a label in reports, never a file system path: it is
//! shown escaped ([`label`]) and never opened. A package inside a package is not opened (one
//! level is read).

use std::io::{Cursor, Read};
use std::path::Path;

use crate::source::Format;

/// The most entries a package may have: far beyond real ones (a large EPUB has a few
/// thousand), and each costs its central-directory record in memory.
pub const MAX_ENTRIES: usize = 50_000;

/// A part may decompress to this many times its compressed size, once it is larger than
/// [`RATIO_FLOOR`]: text compresses 3 to 20 times, deflate at most about 1,032 times, which is
/// what a zip bomb does.
pub const MAX_RATIO: u64 = 200;

/// Below this size a part's compression ratio is not looked at (a small run of spaces
/// compresses past any ratio).
pub const RATIO_FLOOR: u64 = 1 << 20;

/// All the parts read may decompress to this many times the package (and 50 MB): the time a
/// package takes stays linear in its size. Text compresses 3 to 20 times.
pub const MAX_TOTAL_RATIO: u64 = 100;

/// The memory bound of a run besides twice the largest file: 50 MB.
pub const SLACK: u64 = 50 << 20;

/// How far a package's parts may decompress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most bytes one part may decompress to.
    pub part: u64,
    /// The most bytes all the parts read may decompress to.
    pub total: u64,
    /// The most entries.
    pub entries: usize,
}

impl Limits {
    /// The bounds for a package of `len` bytes: checking a part of `p` bytes while the package
    /// is held takes about `len + 2p`, within `2 len + 50 MB` when `p ≤ (len + 50 MB) / 2`.
    /// The parts are read one at a time, so all of them together bound the time, not the
    /// memory: [`MAX_TOTAL_RATIO`] times the package and 50 MB.
    pub fn for_len(len: usize) -> Limits {
        let len = len as u64;
        Limits {
            part: (len + SLACK) / 2,
            total: len.saturating_mul(MAX_TOTAL_RATIO) + SLACK,
            entries: MAX_ENTRIES,
        }
    }
}

/// Why a package is not read (or not read further).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A part chosen to be read: its index in the zip, its label, and the format it is read as
/// (before its bytes are seen: `.xhtml` may still turn out XML, [`Format::for_file`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen {
    index: usize,
    /// The entry's name as shown: [`label`] of its raw bytes.
    pub label: String,
    /// The format its name implies.
    pub format: Format,
}

/// One part, decompressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// The entry's name as shown ([`label`]).
    pub label: String,
    /// The format it is read as.
    pub format: Format,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// An open package: the parts to read, each decompressed when asked for.
pub struct Package<'a> {
    archive: zip::ZipArchive<Cursor<&'a [u8]>>,
    /// The parts to read, by name (the order reports sort paths in).
    pub chosen: Vec<Chosen>,
    /// Entries that are packages themselves, not opened (their labels).
    pub nested: Vec<String>,
    limits: Limits,
    read: u64,
}

/// What a zip file starts with (a local file header).
pub const ZIP_MAGIC: &[u8] = b"PK\x03\x04";

/// The package kind `bytes` say they are, if any: a zip whose `mimetype` entry (first, stored,
/// as the EPUB and OpenDocument specifications ask) names the kind.
pub fn sniff(bytes: &[u8]) -> Option<Format> {
    if !bytes.starts_with(ZIP_MAGIC) {
        return None;
    }
    // The first local header: name length at 26, extra length at 28, name at 30.
    let name_len = usize::from(u16::from_le_bytes([*bytes.get(26)?, *bytes.get(27)?]));
    let extra_len = usize::from(u16::from_le_bytes([*bytes.get(28)?, *bytes.get(29)?]));
    let name = bytes.get(30..30 + name_len)?;
    let data = 30 + name_len + extra_len;
    if name == b"[Content_Types].xml" {
        return Some(Format::Ooxml);
    }
    if name == b"mimetype" {
        let value = bytes.get(data..(data + 64).min(bytes.len()))?;
        if value.starts_with(b"application/epub+zip") {
            return Some(Format::Epub);
        }
        if value.starts_with(b"application/vnd.oasis.opendocument.") {
            return Some(Format::OpenDocument);
        }
    }
    None
}

/// The format a part of an OpenDocument package is read as: `content.xml` and `styles.xml` at
/// its root (the body and the master pages, headers and footers), as XML; `meta.xml`,
/// `settings.xml`, the manifest, pictures and embedded objects are not read.
fn opendocument_part(name: &str) -> Option<Format> {
    matches!(name, "content.xml" | "styles.xml").then_some(Format::Xml)
}

/// The format a part of an Office Open XML package is read as: relationship parts (`*.rels`)
/// as XML (their external targets, [`crate::extract::xml`]); the parts that hold the text of a
/// Word document (body, headers, footers, footnotes, endnotes, comments), of PowerPoint slides
/// and notes, and Excel's shared strings, as Office parts ([`crate::extract::ooxml`]). Styles,
/// themes, settings, pictures and embedded objects are not read.
fn ooxml_part(name: &str) -> Option<Format> {
    if name.ends_with(".rels") {
        return Some(Format::Xml);
    }
    let file = name.rsplit('/').next().unwrap_or(name);
    let numbered = |prefix: &str| {
        file.strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix(".xml"))
            .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
    };
    let text = match name.split_once('/') {
        Some(("word", rest)) if !rest.contains('/') => {
            matches!(
                file,
                "document.xml" | "footnotes.xml" | "endnotes.xml" | "comments.xml"
            ) || numbered("header")
                || numbered("footer")
        }
        Some(("ppt", rest)) => {
            (rest.starts_with("slides/") && !rest[7..].contains('/') && numbered("slide"))
                || (rest.starts_with("notesSlides/")
                    && !rest[12..].contains('/')
                    && numbered("notesSlide"))
        }
        Some(("xl", "sharedStrings.xml")) => true,
        _ => false,
    };
    text.then_some(Format::Ooxml)
}

/// An entry's name as a label: its characters when it is UTF-8, with every control character
/// (NUL included) and every byte that is not UTF-8 written as `\xNN`; `..` and a leading `/`
/// are kept, since the label is only shown.
pub fn label(raw: &[u8]) -> String {
    let mut out = String::with_capacity(raw.len());
    for chunk in raw.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() {
                for b in c.to_string().bytes() {
                    out.push_str(&format!("\\x{b:02X}"));
                }
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out
}

/// The format a part of an EPUB is read as, by its name; `None` for what is not read (CSS,
/// images, fonts, the `mimetype` entry).
fn epub_part(name: &str) -> Option<Format> {
    let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
    match ext.as_str() {
        "xhtml" | "html" | "htm" => Some(Format::Html),
        "opf" | "ncx" | "xml" | "svg" => Some(Format::Xml),
        _ => None,
    }
}

/// Whether an entry's name says it is a package irilint reads (not opened inside another).
fn is_package_name(name: &str) -> bool {
    Format::from_path(Path::new(name)).is_some_and(Format::is_package)
}

impl<'a> Package<'a> {
    /// Opens `bytes` as a package of `kind`, refusing what the limits do not allow before any
    /// part is decompressed.
    pub fn open(kind: Format, bytes: &'a [u8], limits: Limits) -> Result<Package<'a>, Refused> {
        let archive = zip::ZipArchive::new(Cursor::new(bytes))
            .map_err(|e| Refused(format!("not a readable {} package: {e}", kind.name())))?;
        if archive.len() > limits.entries {
            return Err(Refused(format!(
                "refused: the package has {} entries, more than {} ",
                archive.len(),
                limits.entries
            )));
        }
        let mut chosen = Vec::new();
        let mut nested = Vec::new();
        let mut declared = 0u64;
        for index in 0..archive.len() {
            let entry = archive
                .by_index_data(index)
                .map_err(|e| Refused(format!("not a readable package: {e}")))?;
            if entry.is_dir() {
                continue;
            }
            let label = label(entry.name_raw());
            let format = match kind {
                Format::Epub => epub_part(&label),
                Format::OpenDocument => opendocument_part(&label),
                Format::Ooxml => ooxml_part(&label),
                _ => None,
            };
            let Some(format) = format else {
                if is_package_name(&label) {
                    nested.push(label);
                }
                continue;
            };
            if entry.encrypted() {
                return Err(Refused(format!(
                    "refused: its part `{label}` is encrypted, and irilint reads no encrypted part"
                )));
            }
            check_size(&label, entry.size(), entry.compressed_size(), &limits)?;
            declared = declared.saturating_add(entry.size());
            if declared > limits.total {
                return Err(total_refusal(&limits));
            }
            chosen.push(Chosen {
                index,
                label,
                format,
            });
        }
        // Reports are sorted by path: the parts by name, whatever the zip's order.
        chosen.sort_by(|a, b| a.label.cmp(&b.label));
        Ok(Package {
            archive,
            chosen,
            nested,
            limits,
            read: 0,
        })
    }

    /// Decompresses the `k`th chosen part, refusing it (and the rest of the package) past the
    /// limits, whatever its header says.
    pub fn read(&mut self, k: usize) -> Result<Part, Refused> {
        let chosen = self.chosen[k].clone();
        self.read_entry(chosen)
    }

    /// Decompresses the chosen part named `label` once more (what an Office relationship part
    /// needs of the part it describes), within the same limits; `None` when no such part is
    /// read.
    pub fn read_again(&mut self, label: &str) -> Option<Result<Part, Refused>> {
        let chosen = self.chosen.iter().find(|c| c.label == label)?.clone();
        Some(self.read_entry(chosen))
    }

    /// Decompresses the part named `label` that is not read for itself (an Excel worksheet,
    /// whose cells show its hyperlinks' text), as XML, within the same limits; `None` when the
    /// package has no such entry.
    pub fn read_aside(&mut self, label: &str) -> Option<Result<Part, Refused>> {
        let index = self.archive.index_for_name(label)?;
        let chosen = Chosen {
            index,
            label: label.to_string(),
            format: Format::Xml,
        };
        Some(self.read_entry(chosen))
    }

    fn read_entry(&mut self, chosen: Chosen) -> Result<Part, Refused> {
        let Chosen {
            index,
            label,
            format,
        } = chosen;
        let mut file = self
            .archive
            .by_index(index)
            .map_err(|e| Refused(format!("cannot read its part `{label}`: {e}")))?;
        let compressed = file.compressed_size();
        let by_ratio = compressed.saturating_mul(MAX_RATIO).max(RATIO_FLOOR);
        let left = self.limits.total.saturating_sub(self.read);
        let allowed = self.limits.part.min(by_ratio).min(left);
        let mut bytes = Vec::with_capacity(usize::try_from(file.size().min(allowed)).unwrap_or(0));
        (&mut file)
            .take(allowed.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|e| Refused(format!("cannot read its part `{label}`: {e}")))?;
        let got = bytes.len() as u64;
        if got > allowed {
            return Err(if got > self.limits.part {
                part_refusal(&label, &self.limits)
            } else if got > left {
                total_refusal(&self.limits)
            } else {
                ratio_refusal(&label, compressed)
            });
        }
        self.read += got;
        Ok(Part {
            label,
            format,
            bytes,
        })
    }
}

fn check_size(label: &str, size: u64, compressed: u64, limits: &Limits) -> Result<(), Refused> {
    if size > limits.part {
        return Err(part_refusal(label, limits));
    }
    if size > RATIO_FLOOR && size / compressed.max(1) > MAX_RATIO {
        return Err(ratio_refusal(label, compressed));
    }
    Ok(())
}

fn part_refusal(label: &str, limits: &Limits) -> Refused {
    Refused(format!(
        "refused: its part `{label}` decompresses to more than {} bytes (half of the memory bound, twice the file + 50 MB); a zip bomb?",
        limits.part
    ))
}

fn total_refusal(limits: &Limits) -> Refused {
    Refused(format!(
        "refused: its parts decompress to more than {} bytes in all ({MAX_TOTAL_RATIO} times the file + 50 MB); a zip bomb?",
        limits.total
    ))
}

fn ratio_refusal(label: &str, compressed: u64) -> Refused {
    Refused(format!(
        "refused: its part `{label}` decompresses to more than {MAX_RATIO} times its {compressed} compressed bytes; a zip bomb?"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_escape_what_is_not_shown() {
        assert_eq!(label(b"OEBPS/ch1.xhtml"), "OEBPS/ch1.xhtml");
        assert_eq!(label(b"../../etc/passwd"), "../../etc/passwd");
        assert_eq!(label(b"/abs\0x"), "/abs\\x00x");
        assert_eq!(label(b"a\xFFb\xC3"), "a\\xFFb\\xC3");
        assert_eq!(label("caf\u{e9}\u{202e}".as_bytes()), "caf\u{e9}\u{202e}");
    }

    #[test]
    fn sniffing_reads_the_first_entry() {
        let mut zip = b"PK\x03\x04".to_vec();
        zip.extend([0u8; 22]);
        zip.extend(8u16.to_le_bytes());
        zip.extend(0u16.to_le_bytes());
        zip.extend(b"mimetype");
        zip.extend(b"application/epub+zip");
        assert_eq!(sniff(&zip), Some(Format::Epub));
        assert_eq!(sniff(&zip[..40]), None);
        assert_eq!(sniff(b"PK\x03\x04"), None);
        assert_eq!(sniff(b"<html>"), None);
    }
}
