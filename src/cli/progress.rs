//! The progress bar of `check` on standard error: files done out of the total and IRIs checked,
//! shown only once a run has taken about a second, only on a terminal, and never for machine
//! formats or `--quiet`.

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

    /// Removes the bar before the report is printed.
    pub(super) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
