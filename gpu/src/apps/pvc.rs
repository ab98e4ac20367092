//! pvc, page view count: weighted hits per page in an Apache-style access log
//! (3 data structures).

use rand::Rng;

use super::app::{chunk, le, App, Arg, Case, Fill, Output};
use crate::inputs;

pub struct Pvc;

pub const PAGES: usize = 1000;

/// Whole log lines, at most `bytes` bytes: skewed page popularity, mostly
/// status 200.
pub fn log(bytes: usize, seed: u64) -> Vec<u8> {
    let mut r = inputs::rng(seed);
    let mut out = Vec::with_capacity(bytes);
    loop {
        let u: f64 = r.random();
        let page = ((u * u * u) * PAGES as f64) as usize;
        let status = match r.random_range(0..20) {
            0 => 404,
            1 => 304,
            2 => 500,
            _ => 200,
        };
        let line = format!(
            "10.{}.{}.{} - - [22/Nov/2026:{:02}:{:02}:{:02} +0000] \"GET /page/{page}.html HTTP/1.1\" {status} {}\n",
            r.random_range(0..256),
            r.random_range(0..256),
            r.random_range(0..256),
            r.random_range(0..24),
            r.random_range(0..60),
            r.random_range(0..60),
            r.random_range(200..90000),
        );
        if out.len() + line.len() > bytes {
            return out;
        }
        out.extend_from_slice(line.as_bytes());
    }
}

/// Weighted hits per page, as the kernel computes them.
pub fn reference(log: &[u8], weight: &[u32]) -> Vec<u64> {
    let mut hits = vec![0u64; weight.len()];
    for line in log.split(|&c| c == b'\n').filter(|l| !l.is_empty()) {
        let text = String::from_utf8_lossy(line);
        let Some(start) = text.find("\"GET /page/") else {
            continue;
        };
        let digits: String = text[start + 11..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let Some(end) = text[start + 1..].find("\" ") else {
            continue;
        };
        let status = &text[start + 1 + end + 2..];
        if let (Ok(id), true) = (digits.parse::<usize>(), status.starts_with("200")) {
            if id < hits.len() {
                hits[id] += u64::from(weight[id]);
            }
        }
    }
    hits
}

impl App for Pvc {
    fn name(&self) -> &'static str {
        "pvc"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let log = log(bytes, seed);
        let mut r = inputs::rng(seed ^ 0x9e37);
        let weight: Vec<u32> = (0..PAGES).map(|_| r.random_range(1..1000)).collect();
        let hits = reference(&log, &weight);
        Case {
            inputs: vec![log, le(&weight)],
            // Hits are added atomically: they start at zero.
            outputs: vec![Output {
                bytes: 8 * PAGES,
                fill: Fill::Byte(0),
            }],
            expected: vec![le(&hits)],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        let n = case.inputs[0].len() as u64;
        vec![
            Arg::Input(0),
            Arg::Input(1),
            Arg::Output(0),
            Arg::U64(n),
            Arg::U64(chunk(n, threads)),
            Arg::U64(PAGES as u64),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_lines_are_whole_and_counted() {
        let log = log(20_000, 3);
        assert!(log.len() <= 20_000 && log.ends_with(b"\n"));
        let weight = vec![1u32; PAGES];
        let hits = reference(&log, &weight);
        let lines = log.iter().filter(|&&c| c == b'\n').count() as u64;
        let counted: u64 = hits.iter().sum();
        // About 85% of the requests succeed.
        assert!(
            counted < lines && counted * 10 > lines * 7,
            "{counted} of {lines}"
        );
    }

    #[test]
    fn reference_parses_one_line() {
        let line = b"1.2.3.4 - - [x] \"GET /page/42.html HTTP/1.1\" 200 10\n1.2.3.4 - - [x] \"GET /page/42.html HTTP/1.1\" 404 10\n";
        let mut weight = vec![0u32; PAGES];
        weight[42] = 7;
        assert_eq!(reference(line, &weight)[42], 7);
    }
}
