//! JUnit XML (`--format junit`), as Jenkins and GitLab read test reports, valid against the
//! strict Apache Ant JUnit schema (`tests/junit.xsd`, which the tests validate every report
//! against; Jenkins' lenient xunit `junit-10.xsd` accepts what it accepts): one test suite; a
//! passing test case per clean file and a test case per diagnostic (the schema allows one
//! `<failure>` per test case), named `PATH:LINE:COLUMN: RULE`, which fails exactly when its
//! diagnostic fails the run (an error; a warning too with `--deny-warnings`), so that Jenkins
//! and GitLab show a green run green: a warning that passes is a passing test case named
//! `PATH:LINE:COLUMN: RULE (warning)` (the strict schema allows no text in one); a test case with an
//! `<error>` per file that could not be read, and a `<skipped>` one per named binary file. The
//! counts are those of the test cases. irilint does not time files: every `time` is `0`, and
//! the suite's `timestamp` is the run's (`SOURCE_DATE_EPOCH` when set, for reproducible
//! reports); the `hostname` is `localhost`, so that nothing of the machine is written. Text from
//! the input goes out with hidden characters — C0 controls and others XML 1.0 forbids among
//! them — as visible `⟨U+001B⟩` escapes, then XML-escaped.

use std::borrow::Borrow;
use std::cell::RefCell;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};

use super::Summary;
use super::place::Places;
use crate::check::{FileOutcome, Run, RunOutcome};
use crate::diagnostic::Diagnostic;
use crate::iri::chars::escape_unsafe;
use crate::rules::Severity;

/// The JUnit report of a run.
pub fn render(outcome: &RunOutcome, places: &Places, deny_warnings: bool) -> String {
    let mut out = Vec::new();
    let unread = RefCell::new(outcome.unread());
    write_files(
        outcome.files.iter(),
        &unread,
        places,
        deny_warnings,
        &mut out,
    )
    .expect("writing to memory cannot fail");
    String::from_utf8(out).expect("reports are UTF-8")
}

/// Writes the JUnit report of the files `files` gives, in order, as each comes
/// ([`crate::check::run_ordered`]); `unread` is read after the last file. The suite's head
/// counts the test cases that follow it, so the cases go to an anonymous temporary file first
/// (deleted when done) and are copied after the head: one file's findings at a time are held,
/// however many files there are. `deny_warnings`: whether a warning fails the run, and so its
/// test case. Returns the run's summary.
pub fn write_files<F: Borrow<FileOutcome>>(
    files: impl Iterator<Item = F>,
    unread: &RefCell<Run<()>>,
    places: &Places,
    deny_warnings: bool,
    out: &mut dyn Write,
) -> io::Result<Summary> {
    let mut cases = BufWriter::new(tempfile::tempfile()?);
    let mut summary = Summary::default();
    let (mut tests, mut failures) = (0usize, 0usize);
    for file in files {
        let file = file.borrow();
        summary.add(file);
        let path = places.display(&file.path);
        if file.diagnostics.is_empty() {
            tests += 1;
            writeln!(
                cases,
                "    <testcase name=\"{}\" classname=\"irilint\" time=\"0\"/>",
                xml(&path)
            )?;
            continue;
        }
        for d in &file.diagnostics {
            tests += 1;
            let fails = match d.severity {
                Severity::Error => true,
                Severity::Warning => deny_warnings,
                Severity::Info => false,
            };
            if !fails {
                writeln!(
                    cases,
                    "    <testcase name=\"{}:{}:{}: {} ({})\" classname=\"irilint\" time=\"0\"/>",
                    xml(&path),
                    d.start.line,
                    d.start.column,
                    d.rule,
                    d.severity.name()
                )?;
                continue;
            }
            failures += 1;
            write!(
                cases,
                "    <testcase name=\"{}:{}:{}: {}\" classname=\"irilint\" time=\"0\">\n{}    </testcase>\n",
                xml(&path),
                d.start.line,
                d.start.column,
                d.rule,
                failure(d, &path)
            )?;
        }
    }
    let unread = unread.borrow();
    for (e, element) in unread
        .errors
        .iter()
        .map(|e| (e, "error type=\"unreadable\""))
        .chain(unread.skipped.iter().map(|e| (e, "skipped")))
    {
        tests += 1;
        write!(
            cases,
            "    <testcase name=\"{}\" classname=\"irilint\" time=\"0\">\n      <{element} message=\"{}\"/>\n    </testcase>\n",
            xml(&places.display(&e.path)),
            xml(&e.message),
        )?;
    }
    let mut cases = cases.into_inner().map_err(io::IntoInnerError::into_error)?;
    cases.seek(SeekFrom::Start(0))?;
    write!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"irilint\" package=\"irilint\" id=\"0\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{}\" skipped=\"{}\" time=\"0\" timestamp=\"{}\" hostname=\"localhost\">\n    <properties/>\n",
        unread.errors.len(),
        unread.skipped.len(),
        timestamp(),
    )?;
    io::copy(&mut cases, out)?;
    out.write_all(b"    <system-out/>\n    <system-err/>\n  </testsuite>\n</testsuites>\n")?;
    Ok(summary)
}

/// The run's time in UTC as the schema's `timestamp` wants it (`2026-11-26T10:40:00`, no zone):
/// `SOURCE_DATE_EPOCH` (seconds) when set, else now.
fn timestamp() -> String {
    let seconds = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        });
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// Year, month and day of the `days`-th day after 1970-01-01: Howard Hinnant's
/// `civil_from_days` (howardhinnant.github.io/date_algorithms.html), for days after the epoch.
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

fn failure(d: &Diagnostic, path: &str) -> String {
    let mut body = format!(
        "{path}:{}:{}: {}[{}] {}",
        d.start.line,
        d.start.column,
        d.severity.name(),
        d.rule,
        d.message
    );
    if let Some(help) = &d.help {
        body.push_str(&format!("\nhelp: {help}"));
    }
    if let Some(iri) = &d.iri {
        body.push_str(&format!("\nIRI: {iri}"));
    }
    format!(
        "      <failure type=\"{}\" message=\"{}\">{}</failure>\n",
        d.rule,
        xml(&d.message),
        xml_lines(&body)
    )
}

/// [`xml`] line by line, the line feeds kept: element text of our own making.
fn xml_lines(s: &str) -> String {
    let lines: Vec<String> = s.split('\n').map(xml).collect();
    lines.join("\n")
}

/// Text for an attribute or element: hidden characters (every character XML 1.0 forbids
/// among them) made visible, then `&`, `<`, `>`, `"` and `'` written as references.
pub fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in escape_unsafe(s).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        // 2000-02-29 (a leap day of a century leap year) and 2026-11-26.
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_783), (2026, 11, 26));
    }

    #[test]
    fn markup_and_forbidden_characters_are_escaped() {
        assert_eq!(xml("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert_eq!(
            xml("\u{1b}[31m\u{0}\u{202E}\u{FFFE}\r\n"),
            "⟨U+001B⟩[31m⟨U+0000⟩⟨U+202E⟩⟨U+FFFE⟩⟨U+000D⟩⟨U+000A⟩"
        );
    }
}
