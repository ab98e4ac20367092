//! Runs a corpus program's two builds (on the GPU machine) with the
//! arguments of its `run` target, in its own directory, under a time limit:
//! the program's own verdict (PASS or FAIL), whether the two builds print
//! the same results, and their times. The S-L1 build runs with
//! `SL1_LAUNCHES=1`: the S-L1 runtime's account of its launches, printed
//! to standard error at exit, is kept and left out of what is compared.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sl1_core::launches;

use crate::outcome::{RunResult, Runs, Verdict};

/// Runs `exe args` in `dir`, killed after `limit`.
pub fn run(exe: &Path, args: &[String], dir: &Path, limit: Duration) -> RunResult {
    run_as(exe, args, dir, limit, false)
}

/// `run`; with `count`, `SL1_LAUNCHES=1` in the environment (an S-L1
/// build): the runtime's lines on standard error give
/// `RunResult::launches`.
fn run_as(exe: &Path, args: &[String], dir: &Path, limit: Duration, count: bool) -> RunResult {
    let not_run = |why: String| RunResult {
        verdict: Verdict::NotRun,
        seconds: 0.0,
        kernel_ms: None,
        rate: None,
        output: why,
        exit_code: None,
        launches: None,
    };
    // Standard output and standard error apart: the runtime writes its
    // lines at exit, before the C library flushes what standard output
    // still buffers, so in one file they could land inside a line.
    let (Ok(out), Ok(err)) = (tempfile::tempfile(), tempfile::tempfile()) else {
        return not_run("no temporary file".into());
    };
    let start = Instant::now();
    // An executable written just before (a test's stand-in) may still be
    // open in a child another thread forked and has not yet exec'd: exec
    // then fails with ETXTBSY for a moment.
    const ETXTBSY: i32 = 26;
    let spawn = || {
        let mut cmd = Command::new(exe);
        cmd.args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(out.try_clone().expect("a cloned handle"))
            .stderr(err.try_clone().expect("a cloned handle"));
        if count {
            cmd.env("SL1_LAUNCHES", "1");
        } else {
            cmd.env_remove("SL1_LAUNCHES");
        }
        cmd.spawn()
    };
    let mut child = spawn();
    for _ in 0..50 {
        match &child {
            Err(e) if e.raw_os_error() == Some(ETXTBSY) => {
                std::thread::sleep(Duration::from_millis(10));
                child = spawn();
            }
            _ => break,
        }
    }
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return not_run(format!("{}: {e}", exe.display())),
    };
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() >= limit => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break None,
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let stderr = read_all(err);
    let text = without_runtime_lines(&read_all(out), &stderr);
    let exit_code = status.and_then(|s| s.code());
    // The account is printed at exit: none from a run killed at the limit
    // or by a signal.
    let launches = (count && exit_code.is_some()).then(|| launches::parse(&stderr));
    let verdict = match status {
        None => Verdict::Timeout,
        Some(s) => verdict_of(&text, s.success()),
    };
    RunResult {
        verdict,
        seconds,
        kernel_ms: kernel_ms(&text),
        rate: rate(&text),
        output: without_times(&text),
        exit_code,
        launches,
    }
}

/// What a run printed, standard output then standard error, without the
/// S-L1 runtime's lines (standard error's lines that start `sl1: `): they
/// are the S-L1 build's alone, and no part of the program's output.
pub fn without_runtime_lines(stdout: &str, stderr: &str) -> String {
    let mut text = stdout.to_string();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    for line in stderr.lines().filter(|l| !l.starts_with("sl1: ")) {
        text.push_str(line);
        text.push('\n');
    }
    text
}

/// Whether two files hold the same bytes (two builds of one program that
/// S-L1 left as they were).
pub fn same_bytes(a: &Path, b: &Path) -> bool {
    matches!((std::fs::read(a), std::fs::read(b)), (Ok(a), Ok(b)) if a == b)
}

/// A program's executables: the two builds made here and, where it was
/// built on the GPU machine, nvcc's.
#[derive(Clone, Copy, Debug)]
pub struct Executables<'a> {
    pub no_sl1: &'a Path,
    pub sl1: &'a Path,
    pub nvcc: Option<&'a Path>,
}

/// Every build of a program: the two builds once where they are the same
/// bytes, else `reps` times each, alternating (nvcc's with them), keeping
/// the first run's verdict and output and the fastest times. The S-L1
/// build runs with the runtime's account of its launches (its first run's
/// is kept).
pub fn run_both(
    exes: Executables<'_>,
    args: &[String],
    dir: &Path,
    limit: Duration,
    reps: u32,
) -> Runs {
    let Executables { no_sl1, sl1, nvcc } = exes;
    if same_bytes(no_sl1, sl1) {
        // Nothing to time between the two; against nvcc, as often as
        // builds that differ are.
        // The S-L1 build here is the build without it: it runs as that,
        // without the runtime's account.
        let mut timed = alternating(
            &[Some((no_sl1, false)), nvcc.map(|e| (e, false))]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>(),
            (args, dir, limit),
            if nvcc.is_some() { reps } else { 1 },
        );
        let nvcc_run = nvcc.map(|_| timed.remove(1));
        let result = timed.remove(0);
        return Runs {
            sl1: result.clone(),
            no_sl1: result,
            identical: true,
            nondeterministic: false,
            nvcc: nvcc_run,
        };
    }
    let mut timed = alternating(
        &[
            Some((no_sl1, false)),
            Some((sl1, true)),
            nvcc.map(|e| (e, false)),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>(),
        (args, dir, limit),
        reps,
    );
    let nvcc_run = nvcc.map(|_| timed.remove(2));
    let first = (timed.remove(0), timed.remove(0));
    // Outputs that differ: does the build without S-L1 agree with itself?
    let mut nondeterministic = false;
    if first.0.output != first.1.output && finished(&first.0) && finished(&first.1) {
        let again = run(no_sl1, args, dir, limit);
        nondeterministic = finished(&again) && again.output != first.0.output;
    }
    Runs {
        no_sl1: first.0,
        sl1: first.1,
        identical: false,
        nondeterministic,
        nvcc: nvcc_run,
    }
}

/// Runs each of `exes` once, then `reps - 1` more rounds, one run of each
/// in turn, while every one ran to the end (a hang is not timed twice):
/// the first run's verdict, output and account of launches, the fastest
/// times. Each executable comes with whether to ask for that account.
fn alternating(
    exes: &[(&Path, bool)],
    (args, dir, limit): (&[String], &Path, Duration),
    reps: u32,
) -> Vec<RunResult> {
    let mut best: Vec<RunResult> = exes
        .iter()
        .map(|&(e, count)| run_as(e, args, dir, limit, count))
        .collect();
    for _ in 1..reps {
        if !best.iter().all(finished) {
            break;
        }
        for (&(exe, count), best) in exes.iter().zip(best.iter_mut()) {
            let next = run_as(exe, args, dir, limit, count);
            best.seconds = best.seconds.min(next.seconds);
            if let (Some(a), Some(b)) = (best.kernel_ms, next.kernel_ms) {
                best.kernel_ms = Some(a.min(b));
            }
            if let (Some(a), Some(b)) = (best.rate, next.rate) {
                best.rate = Some(a.max(b));
            }
        }
    }
    best
}

/// The run ended by itself (not killed, not failed to start).
fn finished(r: &RunResult) -> bool {
    !matches!(r.verdict, Verdict::Timeout | Verdict::NotRun)
}

fn read_all(mut file: std::fs::File) -> String {
    use std::io::{Read, Seek};
    let mut bytes = Vec::new();
    let _ = file.rewind();
    let _ = file.read_to_end(&mut bytes);
    String::from_utf8_lossy(&bytes).into_owned()
}

/// PASS and FAIL as the programs print them (`PASS`, `FAIL`, `Passed`...).
pub fn verdict_of(text: &str, success: bool) -> Verdict {
    let upper = text.to_ascii_uppercase();
    let fail = upper.contains("FAIL");
    let pass = upper.contains("PASS");
    if fail || !success {
        Verdict::Fail
    } else if pass {
        Verdict::Pass
    } else {
        Verdict::NoVerdict
    }
}

/// The first kernel time a program prints, in milliseconds:
/// `<...> time<...>: 12.5 (us)` and the like, with s, ms, us or ns.
pub fn kernel_ms(text: &str) -> Option<f64> {
    text.lines()
        .filter(|l| l.to_ascii_lowercase().contains("kernel"))
        .find_map(duration_ms)
}

/// Each number of a line with the word after it (`12.5 (us)`, `3 MB/s`).
fn numbers_with_units(line: &str) -> impl Iterator<Item = (f64, &str)> {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ':' || c == '=')
        .filter(|w| !w.is_empty())
        .collect();
    let pairs: Vec<(f64, &str)> = words
        .windows(2)
        .filter_map(|pair| Some((pair[0].parse().ok()?, pair[1])))
        .collect();
    pairs.into_iter()
}

/// The first `<number> <unit>` of a line, in milliseconds (`12.5 (us)`,
/// `3 ms`, `0.4 (s)`).
fn duration_ms(line: &str) -> Option<f64> {
    numbers_with_units(line).find_map(|(value, unit)| {
        let scale = match unit.to_ascii_lowercase().as_str() {
            "s" | "sec" | "secs" | "second" | "seconds" => 1e3,
            "ms" | "msec" | "msecs" => 1.0,
            "us" | "usec" | "usecs" | "\u{b5}s" => 1e-3,
            "ns" => 1e-6,
            _ => return None,
        };
        Some(value * scale)
    })
}

/// The first rate a program prints (`<number> <unit>/s`: `2292.4 MB/s`,
/// `3.1 GB/s`, `12 keys/s`), bytes and operations scaled by their k, M,
/// G or T prefix.
pub fn rate(text: &str) -> Option<f64> {
    text.lines().find_map(rate_of_line)
}

fn rate_of_line(line: &str) -> Option<f64> {
    numbers_with_units(line).find_map(|(value, unit)| {
        let unit = unit.strip_suffix("/s")?;
        // `a/b/s` and the like are no rate of work.
        if unit.is_empty() || !unit.chars().all(char::is_alphabetic) {
            return None;
        }
        // A prefix scales bytes and operations (`MB/s`, `GFLOP/s`); other
        // units (`keys/s`) count as they are, the same in both builds.
        let mut chars = unit.chars();
        let prefix = chars.next()?;
        let prefixed = matches!(
            chars.as_str().to_ascii_lowercase().as_str(),
            "b" | "bytes" | "flop" | "flops" | "op" | "ops"
        );
        let scale = match (prefix, prefixed) {
            ('k' | 'K', true) => 1e3,
            ('M', true) => 1e6,
            ('G', true) => 1e9,
            ('T', true) => 1e12,
            _ => 1.0,
        };
        Some(value * scale)
    })
}

/// The output without lines that carry times, which differ from run to
/// run: those that say so, and those with a duration or a rate in them.
pub fn without_times(text: &str) -> String {
    text.lines()
        .filter(|l| {
            let lower = l.to_ascii_lowercase();
            !(lower.contains("time")
                || lower.contains("elapsed")
                || lower.contains("throughput")
                || duration_ms(l).is_some()
                || rate_of_line(l).is_some())
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts() {
        assert_eq!(verdict_of("result: PASS\n", true), Verdict::Pass);
        assert_eq!(verdict_of("Passed\n", true), Verdict::Pass);
        assert_eq!(verdict_of("PASS\nFAIL at 3\n", true), Verdict::Fail);
        assert_eq!(verdict_of("PASS\n", false), Verdict::Fail);
        assert_eq!(verdict_of("sum = 3\n", true), Verdict::NoVerdict);
    }

    #[test]
    fn kernel_times_in_their_units() {
        assert_eq!(
            kernel_ms("Average kernel execution time: 12.5 (us)\n"),
            Some(0.0125)
        );
        assert_eq!(kernel_ms("Total kernel time : 3 ms\n"), Some(3.0));
        assert_eq!(kernel_ms("kernel time: 2 (s)\n"), Some(2000.0));
        assert_eq!(kernel_ms("time: fast\n"), None);
        assert_eq!(kernel_ms("Total kernel execution 0.5 (s)\n"), Some(500.0));
        assert_eq!(kernel_ms("kernels: 4\nsum = 3 s\n"), None);
    }

    #[test]
    fn rates_in_their_units() {
        assert_eq!(rate("1 51165125 pass pass\n2292.5 MB/s\n"), Some(2292.5e6));
        assert_eq!(rate("bandwidth = 3 GB/s\n"), Some(3e9));
        assert_eq!(rate("12 keys/s\n"), Some(12.0));
        assert_eq!(rate("sum = 3\n4 ms\n"), None);
        assert_eq!(rate("x 5 a/b/s\n"), None);
    }

    #[test]
    fn times_leave_the_compared_output() {
        assert_eq!(
            without_times("sum = 3\nElapsed time: 4 ms\nPASS\n"),
            "sum = 3\nPASS\n"
        );
        // A duration without the word (HeCBench's ddbp): not compared.
        assert_eq!(
            without_times("Total kernel execution 0.406613 (s)\nchecksum = 54.5\n"),
            "checksum = 54.5\n"
        );
        // A rate (HeCBench's crc64): not compared either.
        assert_eq!(
            without_times("1 51165 pass\n2292.44 MB/s\n"),
            "1 51165 pass\n"
        );
    }

    #[test]
    fn runs_a_program_under_a_time_limit() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("prog");
        std::fs::write(
            &script,
            "#!/bin/sh\necho \"args $1 $2\"\necho 'kernel time: 5 (ms)'\necho PASS\n",
        )
        .unwrap();
        make_executable(&script);
        let r = run(
            &script,
            &["a".into(), "b".into()],
            dir.path(),
            Duration::from_secs(10),
        );
        assert_eq!(r.verdict, Verdict::Pass);
        assert_eq!(r.kernel_ms, Some(5.0));
        assert_eq!(r.output, "args a b\nPASS\n");

        let slow = dir.path().join("slow");
        std::fs::write(&slow, "#!/bin/sh\nsleep 5\necho PASS\n").unwrap();
        make_executable(&slow);
        let r = run(&slow, &[], dir.path(), Duration::from_millis(200));
        assert_eq!(r.verdict, Verdict::Timeout);
        assert!(r.seconds < 4.0);

        let r = run(
            &dir.path().join("missing"),
            &[],
            dir.path(),
            Duration::from_secs(1),
        );
        assert_eq!(r.verdict, Verdict::NotRun);
    }

    #[test]
    fn the_same_executable_runs_once_and_others_are_timed_at_their_fastest() {
        let dir = tempfile::tempdir().unwrap();
        // Each run appends a line to `count` and prints a time that grows.
        let body = "#!/bin/sh\necho x >> count\nn=$(wc -l < count)\n\
                    echo \"kernel time: $n (ms)\"\necho PASS\n";
        let a = dir.path().join("a");
        let b = dir.path().join("b");
        std::fs::write(&a, body).unwrap();
        std::fs::write(&b, format!("{body}# another build\n")).unwrap();
        make_executable(&a);
        make_executable(&b);
        let limit = Duration::from_secs(10);
        let count = || {
            std::fs::read_to_string(dir.path().join("count"))
                .unwrap()
                .lines()
                .count()
        };

        let exes = |no_sl1, sl1| Executables {
            no_sl1,
            sl1,
            nvcc: None,
        };
        let same = run_both(exes(&a, &a), &[], dir.path(), limit, 3);
        assert!(same.identical);
        assert_eq!(count(), 1);
        assert_eq!(same.sl1, same.no_sl1);

        let differ = run_both(exes(&a, &b), &[], dir.path(), limit, 3);
        assert!(!differ.identical);
        assert_eq!(count(), 7);
        // Runs 2..7 alternate a, b: the fastest of each is its first.
        assert_eq!(differ.no_sl1.kernel_ms, Some(2.0));
        assert_eq!(differ.sl1.kernel_ms, Some(3.0));
        assert_eq!(differ.sl1.verdict, Verdict::Pass);
        assert!(!differ.nondeterministic);

        // Output that changes from run to run (the run count): the build
        // without S-L1 is run again, disagrees with itself, and the
        // difference is not S-L1's.
        let body = "#!/bin/sh\necho x >> count\necho \"appended $(wc -l < count)\"\necho PASS\n";
        std::fs::write(&a, body).unwrap();
        std::fs::write(&b, format!("{body}# another build\n")).unwrap();
        let varying = run_both(exes(&a, &b), &[], dir.path(), limit, 1);
        assert!(varying.nondeterministic);
        assert_eq!(varying.wrong(), None);

        // With nvcc: the same executable is timed against it as often as
        // builds that differ are, alternating.
        std::fs::write(
            &a,
            "#!/bin/sh\necho x >> count\necho 'kernel time: 3 (ms)'\necho PASS\n",
        )
        .unwrap();
        std::fs::write(
            &b,
            "#!/bin/sh\necho x >> count\necho 'kernel time: 1 (ms)'\necho PASS\n",
        )
        .unwrap();
        let before = count();
        let exes = Executables {
            no_sl1: &a,
            sl1: &a,
            nvcc: Some(&b),
        };
        let against = run_both(exes, &[], dir.path(), limit, 2);
        assert_eq!(count() - before, 4);
        assert!(against.identical);
        assert_eq!(against.nvcc.as_ref().unwrap().kernel_ms, Some(1.0));
        assert_eq!(against.nvcc_ratio(), Some(3.0));
    }

    #[test]
    fn the_runtime_s_lines_leave_the_output_apart() {
        assert_eq!(
            without_runtime_lines(
                "sum = 3",
                "sl1: _Z6bypassPf: 2 launch(es) with lines, the last with 64 B, 0 sized by the \
                 runtime alone\nwarning: x\nsl1x: y\n"
            ),
            "sum = 3\nwarning: x\nsl1x: y\n"
        );
        assert_eq!(without_runtime_lines("", "sl1: k: x\n"), "");
    }

    #[test]
    fn the_s_l1_build_gives_its_launches_and_the_outputs_still_agree() {
        let dir = tempfile::tempdir().unwrap();
        // The runtime's line only with SL1_LAUNCHES, on standard error; a
        // kernel named `bypass` would read as PASS in the output.
        let body = |extra: &str| {
            format!(
                "#!/bin/sh\nprintf 'kernel time: 2 (ms)\\nsum = 3'\n\
                 if [ -n \"$SL1_LAUNCHES\" ]; then echo 'sl1: _Z6bypassPf: 6 launch(es) with \
                 lines, the last with 20480 B, 2 sized by the runtime alone' >&2; fi\n\
                 echo ' done'\n{extra}"
            )
        };
        let no_sl1 = dir.path().join("no_sl1");
        let sl1 = dir.path().join("sl1");
        std::fs::write(&no_sl1, body("")).unwrap();
        std::fs::write(&sl1, body("# another build\n")).unwrap();
        make_executable(&no_sl1);
        make_executable(&sl1);
        let exes = Executables {
            no_sl1: &no_sl1,
            sl1: &sl1,
            nvcc: None,
        };
        let runs = run_both(exes, &[], dir.path(), Duration::from_secs(10), 2);
        assert_eq!(
            runs.sl1.launches,
            Some(vec![launches::KernelLaunches {
                kernel: "_Z6bypassPf".into(),
                launches: 6,
                last_bytes: 20480,
                by_runtime: 2,
            }])
        );
        assert_eq!(runs.no_sl1.launches, None);
        assert_eq!(runs.sl1.output, "sum = 3 done\n");
        assert_eq!(runs.sl1.output, runs.no_sl1.output);
        assert_eq!(runs.sl1.verdict, Verdict::NoVerdict);
        assert_eq!(runs.wrong(), None);
        assert!(!runs.nondeterministic);

        // A build that printed no line: an account of no kernel. One killed
        // at the limit: no account.
        let quiet = dir.path().join("quiet");
        std::fs::write(&quiet, "#!/bin/sh\necho sum = 3\n").unwrap();
        make_executable(&quiet);
        let r = run_as(&quiet, &[], dir.path(), Duration::from_secs(10), true);
        assert_eq!(r.launches, Some(vec![]));
        let slow = dir.path().join("slow");
        std::fs::write(&slow, "#!/bin/sh\nsleep 5\n").unwrap();
        make_executable(&slow);
        let r = run_as(&slow, &[], dir.path(), Duration::from_millis(200), true);
        assert_eq!(r.launches, None);

        // The same bytes both ways: run once, as the build without S-L1.
        let same = run_both(
            Executables {
                no_sl1: &sl1,
                sl1: &sl1,
                nvcc: None,
            },
            &[],
            dir.path(),
            Duration::from_secs(10),
            2,
        );
        assert!(same.identical);
        assert_eq!(same.sl1.launches, None);
    }

    fn make_executable(path: &Path) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}
