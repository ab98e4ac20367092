//! Building one seed: its generated kernel in the plain build and in each
//! selected mode, in memory through the driver's library, then ptxas to a
//! cubin. A build that errs or panics is a build failure with its message,
//! never the end of the run. A mode whose PTX is the same as an earlier
//! build's of that seed is not assembled (nor later run): it could only
//! repeat that build's result.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use sl1_driver::build_ir::compile_text;
use sl1_kernelgen::KernelSpec;
use sl1_pass::transform::LaunchBytes;

use crate::modes::{Mode, PLAIN};
use crate::ptxas::Ptxas;
use sl1_pass::ptxas_bugs::narrow_store_of_float;

/// What one build of a seed gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Built {
    /// Distinct code: the cubin to run.
    Code(Vec<u8>),
    /// The same PTX as the named earlier build of this seed.
    Same(String),
    /// The driver failed or panicked, or ptxas refused the PTX.
    Failed(String),
    /// The PTX meets the ptxas bug of `sl1_pass::ptxas_bugs` (the line says where):
    /// its bytes would be ptxas's, not the code's, so it is not run.
    Hazard(String),
}

/// One build and the seconds it took (driver and ptxas, on its thread).
#[derive(Clone, Debug)]
pub struct Build {
    pub built: Built,
    pub seconds: f64,
    /// The kernels whose line buffers are launch-sized (`--line-buffer
    /// launch`): each launch of one must give its bytes.
    pub launch_bytes: BTreeMap<String, LaunchBytes>,
}

/// Every build of one seed.
#[derive(Debug)]
pub struct SeedBuild {
    pub seed: u64,
    /// The kernel's description, `None` when the generator panicked.
    pub spec: Option<KernelSpec>,
    pub plain: Build,
    /// One per selected mode, in the builder's order (none when the
    /// generator panicked: nothing was built).
    pub modes: Vec<Build>,
}

/// Builds seeds in the plain build and the selected modes.
pub struct Builder {
    pub modes: Vec<Mode>,
    plain: Mode,
    ptxas: Ptxas,
    dir: tempfile::TempDir,
}

impl Builder {
    pub fn new(modes: Vec<Mode>, ptxas: Ptxas) -> std::io::Result<Builder> {
        Ok(Builder {
            modes,
            plain: Mode::plain(),
            ptxas,
            dir: tempfile::Builder::new().prefix("sl1-fuzz-").tempdir()?,
        })
    }

    /// Builds `seed` on builder thread `worker` (which names its files).
    /// `None` when `stop` was set before every build was done.
    pub fn build_seed(&self, seed: u64, worker: usize, stop: &AtomicBool) -> Option<SeedBuild> {
        self.build_seed_on(seed, worker, 1, stop)
    }

    /// Builds `seed` as `build_seed` does, its modes shared by `threads`
    /// threads of its own: one seed's builds take from a tenth of a second
    /// to half a minute each (`docs/results/2026-11-29-compile-time-seed-946385.txt`),
    /// so where seeds are few a heavy one kept one thread busy while the
    /// others idled. Which of two identical builds is reported as the
    /// other's copy (`Built::Same`) then depends on which finished first.
    pub fn build_seed_on(
        &self,
        seed: u64,
        worker: usize,
        threads: usize,
        stop: &AtomicBool,
    ) -> Option<SeedBuild> {
        let kernel = match catch_unwind(|| sl1_kernelgen::generate(seed)) {
            Ok(kernel) => kernel,
            Err(panic) => {
                let message = format!("kernelgen panicked: {}", panic_message(&*panic));
                return Some(SeedBuild {
                    seed,
                    spec: None,
                    plain: Build {
                        built: Built::Failed(message),
                        seconds: 0.0,
                        launch_bytes: BTreeMap::new(),
                    },
                    modes: Vec::new(),
                });
            }
        };
        let name = format!("{}.ll", kernel.spec.name);
        // The PTX of this seed's distinct builds so far, by build name.
        let distinct = Mutex::new(Vec::new());
        let stem = |mode: &str| format!("w{worker}-{seed}-{mode}");
        let plain = self.build_one(&kernel.ir, &name, &self.plain, &stem(PLAIN), &distinct);
        let next = AtomicUsize::new(0);
        let done: Mutex<Vec<Option<Build>>> = Mutex::new(vec![None; self.modes.len()]);
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(mode) = self.modes.get(i) else {
                        break;
                    };
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let build =
                        self.build_one(&kernel.ir, &name, mode, &stem(&mode.name), &distinct);
                    done.lock().expect("no build panics holding it")[i] = Some(build);
                });
            }
        });
        let modes = done
            .into_inner()
            .expect("no build panics holding it")
            .into_iter()
            .collect::<Option<Vec<Build>>>()?;
        Some(SeedBuild {
            seed,
            spec: Some(kernel.spec),
            plain,
            modes,
        })
    }

    fn build_one(
        &self,
        ir: &str,
        name: &str,
        mode: &Mode,
        stem: &str,
        distinct: &Mutex<Vec<(String, String)>>,
    ) -> Build {
        let start = Instant::now();
        let compiled = catch_unwind(AssertUnwindSafe(|| {
            compile_text(ir, name, &mode.args, false)
        }));
        let (launch_bytes, failure) = match &compiled {
            Ok(Ok(c)) => (
                sl1_pass::launch::launch_bytes(&c.report),
                c.report.internal_failure(),
            ),
            _ => (BTreeMap::new(), None),
        };
        let built = match compiled {
            Err(panic) => Built::Failed(format!("the driver panicked: {}", panic_message(&*panic))),
            Ok(Err(err)) => Built::Failed(format!("{err:#}")),
            // The pass put a body back: the code is as without it there,
            // so only the report shows the failure.
            Ok(Ok(_)) if failure.is_some() => Built::Failed(format!(
                "the pass put a kernel back as it was: {}",
                failure.unwrap_or_default()
            )),
            Ok(Ok(compiled)) => {
                let same = {
                    let mut distinct = distinct.lock().expect("no build panics holding it");
                    let same = distinct
                        .iter()
                        .find(|(_, ptx)| *ptx == compiled.text)
                        .map(|(same, _)| same.clone());
                    if same.is_none() {
                        distinct.push((mode.name.clone(), compiled.text.clone()));
                    }
                    same
                };
                match same {
                    Some(same) => Built::Same(same),
                    None => {
                        if let Some((line, text)) = narrow_store_of_float(&compiled.text) {
                            Built::Hazard(format!("PTX line {line}: {text}"))
                        } else {
                            match self.ptxas.assemble(&compiled.text, self.dir.path(), stem) {
                                Ok(cubin) => Built::Code(cubin),
                                Err(message) => Built::Failed(message),
                            }
                        }
                    }
                }
            }
        };
        Build {
            built,
            seconds: start.elapsed().as_secs_f64(),
            launch_bytes,
        }
    }
}

/// The text of a panic's payload.
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panic_messages_of_both_payload_kinds() {
        let p = catch_unwind(|| panic!("static")).unwrap_err();
        assert_eq!(panic_message(&*p), "static");
        let n = 3;
        let p = catch_unwind(|| panic!("formatted {n}")).unwrap_err();
        assert_eq!(panic_message(&*p), "formatted 3");
    }
}
