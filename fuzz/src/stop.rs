//! When a run stops early: on SIGINT or SIGTERM (a second one ends the
//! process at once) or at the time limit. Builders check the flag between
//! builds, the GPU thread between seeds, so that a cut-off run still prints
//! its totals and the first seed it did not complete.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A stop request shared by every thread of a run.
#[derive(Clone)]
pub struct Stop {
    flag: Arc<AtomicBool>,
    reason: Arc<Mutex<Option<String>>>,
    deadline: Option<Instant>,
}

impl Stop {
    /// Stops at `time_limit` from now, if given.
    pub fn new(time_limit: Option<Duration>) -> Stop {
        Stop {
            flag: Arc::new(AtomicBool::new(false)),
            reason: Arc::new(Mutex::new(None)),
            deadline: time_limit.map(|t| Instant::now() + t),
        }
    }

    /// Stops on SIGINT, SIGTERM and SIGHUP; a second signal at least 3 s
    /// later exits with 130 (for a user who does not want to wait for the
    /// builds under way).
    pub fn on_signals(&self) -> Result<(), ctrlc::Error> {
        let stop = self.clone();
        let mut first: Option<Instant> = None;
        ctrlc::set_handler(move || match first {
            // `timeout` signals both the process and its group, and a
            // terminal's Ctrl-C reaches the whole group: one stop, twice.
            Some(at) if at.elapsed() < Duration::from_secs(3) => {}
            Some(_) => {
                eprintln!("sl1-fuzz: second signal, exiting now");
                std::process::exit(130);
            }
            None => {
                first = Some(Instant::now());
                eprintln!("sl1-fuzz: signal received, finishing the seed under way");
                stop.request("signal (SIGINT or SIGTERM)");
            }
        })
    }

    /// Asks every thread to stop; the first reason given is kept.
    pub fn request(&self, reason: &str) {
        let mut kept = self.reason.lock().unwrap_or_else(|e| e.into_inner());
        kept.get_or_insert_with(|| reason.to_string());
        self.flag.store(true, Ordering::SeqCst);
    }

    /// Whether to stop (past the deadline this requests it).
    pub fn is_set(&self) -> bool {
        if !self.flag.load(Ordering::Relaxed) && self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.request("time limit");
        }
        self.flag.load(Ordering::Relaxed)
    }

    /// The flag itself, for code that only reads it.
    pub fn flag(&self) -> &AtomicBool {
        &self.flag
    }

    pub fn reason(&self) -> Option<String> {
        self.reason
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_reason_is_kept_and_deadlines_stop() {
        let stop = Stop::new(None);
        assert!(!stop.is_set());
        stop.request("one");
        stop.request("two");
        assert!(stop.is_set());
        assert_eq!(stop.reason().as_deref(), Some("one"));
        let timed = Stop::new(Some(Duration::ZERO));
        assert!(timed.is_set());
        assert_eq!(timed.reason().as_deref(), Some("time limit"));
    }
}
