//! grep: marks the lines that contain a pattern (2 data structures; the
//! pattern is staged in shared memory by the kernel).

use super::app::{chunk, App, Arg, Case, Fill, Output, POISON};
use crate::inputs;

pub struct Grep;

pub const PATTERN: &[u8] = b"cache memory";

/// 1 at the start of each line containing `pattern`, 0 at other line starts,
/// the poison elsewhere (the kernel writes line starts only).
pub fn reference(text: &[u8], pattern: &[u8]) -> Vec<u8> {
    let mut out = vec![POISON; text.len()];
    let mut start = 0;
    for line in text.split(|&c| c == b'\n') {
        if start < text.len() {
            out[start] = u8::from(line.windows(pattern.len()).any(|w| w == pattern));
        }
        start += line.len() + 1;
    }
    out
}

impl App for Grep {
    fn name(&self) -> &'static str {
        "grep"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let text = inputs::text(bytes, seed);
        Case {
            outputs: vec![Output {
                bytes: text.len(),
                fill: Fill::Byte(POISON),
            }],
            expected: vec![reference(&text, PATTERN)],
            inputs: vec![text, PATTERN.to_vec()],
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
            Arg::U32(PATTERN.len() as u32),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_line_starts() {
        let text = b"a cache memory b\nno\ncache memory\n";
        let out = reference(text, PATTERN);
        assert_eq!(out[0], 1);
        assert_eq!(out[17], 0);
        assert_eq!(out[20], 1);
        assert_eq!(out[1], POISON);
    }

    #[test]
    fn the_pattern_occurs_in_generated_text() {
        let text = inputs::text(200_000, 1);
        let out = reference(&text, PATTERN);
        assert!(out.iter().filter(|&&b| b == 1).count() > 10);
    }
}
