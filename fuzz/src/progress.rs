//! Progress: an indicatif bar over seed x build units (drawn only on a
//! terminal), and a plain line of running totals every so often, since a
//! GPU run's output is usually a log.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use crate::tally::Tally;

pub struct Progress {
    bar: ProgressBar,
    every: Duration,
    last: Instant,
}

impl Progress {
    /// A bar of `units`, and a totals line every `every`.
    pub fn new(units: u64, every: Duration) -> Progress {
        let bar = ProgressBar::new(units);
        if let Ok(style) = ProgressStyle::with_template(
            "{elapsed_precise} [{bar:32}] {pos}/{len} kernels, {per_sec}, eta {eta} {msg}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress {
            bar,
            every,
            last: Instant::now(),
        }
    }

    /// `n` more units done; every `every`, the totals as a line.
    pub fn advance(&mut self, n: u64, tally: &Tally) {
        self.bar.inc(n);
        let problems = tally.problems();
        if problems > 0 {
            self.bar.set_message(format!("{problems} problem(s)"));
        }
        self.tick(tally);
    }

    /// The totals line, when it is due.
    pub fn tick(&mut self, tally: &Tally) {
        if self.last.elapsed() >= self.every {
            self.last = Instant::now();
            self.println(&format!("sl1-fuzz: {}", tally.line()));
        }
    }

    /// A line on standard output, above the bar.
    pub fn println(&self, line: &str) {
        self.bar.suspend(|| println!("{line}"));
    }

    pub fn finish(&self) {
        self.bar.abandon();
    }
}
