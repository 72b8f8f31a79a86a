//! The progress bar of `check` on standard error: files done out of the total and IRIs checked,
//! shown only once a run has taken about a second, only on a terminal, and never for machine
//! formats or `--quiet`.

use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::report::ReportFormat;

/// How long a run goes before the bar appears: short runs stay silent.
const DELAY: Duration = Duration::from_secs(1);

/// Whether a run may show a progress bar.
pub(super) fn wanted(
    stderr_is_terminal: bool,
    quiet: bool,
    format: ReportFormat,
    to_file: bool,
) -> bool {
    stderr_is_terminal && !quiet && !format.is_machine() && !to_file
}

/// A progress bar, hidden until [`DELAY`] has passed.
pub(super) struct Progress {
    bar: ProgressBar,
    started: Instant,
    /// Whether the bar is drawn yet (taken once, by the first file done after the delay).
    shown: Mutex<bool>,
    iris: AtomicUsize,
}

impl Progress {
    /// A bar over `total` inputs, drawn on standard error once the run is slow enough.
    pub(super) fn new(total: usize) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template("{bar:30} {pos}/{len} files · {msg}")
            .expect("the template is valid");
        bar.set_style(style);
        Progress {
            bar,
            started: Instant::now(),
            shown: Mutex::new(false),
            iris: AtomicUsize::new(0),
        }
    }

    /// Counts one file done with `iris` IRIs in it; called from the checking threads.
    pub(super) fn file_done(&self, iris: usize) {
        let total = self.iris.fetch_add(iris, Ordering::Relaxed) + iris;
        self.bar.inc(1);
        self.bar.set_message(format!("{total} IRIs checked"));
        if self.started.elapsed() >= DELAY {
            let mut shown = self.shown.lock().unwrap_or_else(PoisonError::into_inner);
            if !*shown {
                *shown = true;
                self.bar.set_draw_target(ProgressDrawTarget::stderr());
                self.bar.enable_steady_tick(Duration::from_millis(200));
            }
        }
    }

    /// Runs `write` with the bar cleared, and draws it again after (output of whole lines).
    pub(super) fn suspend<R>(&self, write: impl FnOnce() -> R) -> R {
        self.bar.suspend(write)
    }

    /// Removes the bar before the report is printed.
    pub(super) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Standard output while the bar may be drawn on the same terminal: written in whole lines,
/// each batch with the bar cleared first and drawn again below it, so that no line of the
/// report is written onto the bar's last frame.
pub(super) struct AroundBar<'a, W: Write> {
    progress: &'a Progress,
    inner: W,
    /// The end of a line not yet complete.
    pending: Vec<u8>,
}

impl<'a, W: Write> AroundBar<'a, W> {
    /// `inner`, written around `progress`'s bar.
    pub(super) fn new(progress: &'a Progress, inner: W) -> AroundBar<'a, W> {
        AroundBar {
            progress,
            inner,
            pending: Vec::new(),
        }
    }

    fn write_suspended(&mut self, upto: usize) -> io::Result<()> {
        let (inner, pending) = (&mut self.inner, &self.pending[..upto]);
        self.progress
            .bar
            .suspend(|| inner.write_all(pending).and_then(|()| inner.flush()))?;
        self.pending.drain(..upto);
        Ok(())
    }
}

impl<W: Write> Write for AroundBar<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if let Some(last) = memchr::memrchr(b'\n', buf) {
            let upto = self.pending.len() - (buf.len() - last - 1);
            self.write_suspended(upto)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.pending.is_empty() {
            self.write_suspended(self.pending.len())?;
        }
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_around_the_bar_is_written_in_whole_lines_and_all_of_it() {
        let progress = Progress::new(3);
        let mut out = AroundBar::new(&progress, Vec::new());
        out.write_all(b"one\ntw").unwrap();
        assert_eq!(out.inner, b"one\n");
        out.write_all(b"o\nthree").unwrap();
        assert_eq!(out.inner, b"one\ntwo\n");
        out.flush().unwrap();
        assert_eq!(out.inner, b"one\ntwo\nthree");
    }

    #[test]
    fn only_people_at_a_terminal_reading_a_human_report_see_it() {
        assert!(wanted(true, false, ReportFormat::Human, false));
        assert!(wanted(true, false, ReportFormat::Concise, false));
        assert!(!wanted(false, false, ReportFormat::Human, false));
        assert!(!wanted(true, true, ReportFormat::Human, false));
        assert!(!wanted(true, false, ReportFormat::Human, true));
        for format in [
            ReportFormat::Json,
            ReportFormat::Sarif,
            ReportFormat::Github,
            ReportFormat::Junit,
            ReportFormat::Gitlab,
        ] {
            assert!(!wanted(true, false, format, false), "{format:?}");
        }
    }
}
